# A day and its month take the month in the partitive: "7. joulukuuta", not "7. joulukuu".
MONTH_DAY_FORMAT = "j. E"

# Polish writes a short date with dots: 04.12.2026, not 04-12-2026.
SHORT_DATE_FORMAT = "d.m.Y"

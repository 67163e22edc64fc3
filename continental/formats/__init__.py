"""Where Django's date formats for a language read wrong to its speakers (FORMAT_MODULE_PATH
in the settings): only the formats set here differ from Django's own."""

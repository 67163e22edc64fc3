"""The score pad's views, one module per screen."""

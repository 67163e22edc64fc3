"""PostgreSQL through Django's backend, with a health check that costs no round trip."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "continental.settings")
# The web server needs SECRET_KEY from its environment (settings.py).
os.environ["SCOREPAD_WEB_SERVER"] = "true"
application = get_wsgi_application()

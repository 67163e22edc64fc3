from django.conf import settings


def site(request):
    # The live streams (continental/live.py): None when turned off; else the stream
    # process's port on the page's host ("" when a proxy serves /live/ on this origin).
    live = {"port": settings.LIVE_PORT} if settings.LIVE_STREAMS else None
    return {"site_name": settings.SITE_NAME, "live": live}

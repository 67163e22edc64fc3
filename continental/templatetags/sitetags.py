from django import template
from django.conf import settings
from django.urls import translate_url
from django.utils.translation import get_language

register = template.Library()


@register.simple_tag(takes_context=True)
def language_links(context):
    """One link per language to the same page in that language (the switcher); ``url`` goes
    through the view that remembers the choice, ``page`` is the page itself."""
    request = context["request"]
    current = get_language()
    path = request.get_full_path()
    prefix = f"/{current}/"
    # Paths are the same in every language but for their /<lang>/ prefix: swap it, and ask
    # the URL resolver only for a path without one.
    if path.startswith(prefix):
        rest = path[len(prefix) :]
        urls = {code: f"/{code}/{rest}" for code, _ in settings.LANGUAGES}
    else:
        urls = {code: translate_url(path, code) for code, _ in settings.LANGUAGES}
    return [
        {
            "code": code,
            "name": name,
            "url": "/language" + urls[code],
            "page": urls[code],
            "current": code == current,
        }
        for code, name in settings.LANGUAGES
    ]

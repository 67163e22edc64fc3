from django import template
from django.conf import settings
from django.urls import translate_url
from django.utils.translation import get_language

register = template.Library()


@register.simple_tag(takes_context=True)
def language_links(context):
    """One link per language to the same page in that language (the switcher)."""
    request = context["request"]
    current = get_language()
    path = request.get_full_path()
    return [
        {
            "code": code,
            "name": name,
            "url": translate_url(path, code),
            "current": code == current,
        }
        for code, name in settings.LANGUAGES
    ]

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ScorepadConfig(AppConfig):
    name = "scorepad"
    verbose_name = _("Score pad")

from django.urls import path, register_converter

from .tokens import LINK_SHAPE
from .views import (
    circles,
    deals,
    evenings,
    games,
    players,
    seats,
    sheet,
    tablemode,
    tournament_paper,
    tournaments,
)


class TokenConverter:
    """A viewer or editor link: token_urlsafe text, long enough never to be a word like "new"."""

    regex = LINK_SHAPE

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(TokenConverter, "token")

urlpatterns = [
    path("games/", games.game_list, name="game-list"),
    path("games/new/", games.game_new, name="game-new"),
    path("games/import/", games.game_import, name="game-import"),
    path("circles/new/", circles.circle_new, name="circle-new"),
    path("circles/<token:token>/", circles.circle_page, name="circle"),
    path("circles/<token:token>/players/", players.player_list, name="circle-players"),
    path("circles/<token:token>/players/<int:pk>/", players.player_page, name="circle-player"),
    path("circles/<token:token>/year/<int:year>/", players.circle_year, name="circle-year"),
    path("circles/<token:token>/people/rename/", circles.person_rename, name="circle-rename"),
    path("circles/<token:token>/people/merge/", circles.person_merge, name="circle-merge"),
    path("circles/<token:token>/people/separate/", circles.person_separate, name="circle-separate"),
    path("circles/<token:token>/links/", circles.circle_link, name="circle-link"),
    path("games/<token:token>/", sheet.game_page, name="game"),
    path("games/<token:token>/version", sheet.game_version, name="game-version"),
    path("games/<token:token>/table/", tablemode.game_table, name="game-table"),
    path(
        "games/<token:token>/table/version",
        tablemode.game_table_version,
        name="game-table-version",
    ),
    path("games/<token:token>/history/", sheet.game_history, name="game-history"),
    path("games/<token:token>/share/", sheet.game_share, name="game-share"),
    path("games/<token:token>/export.json", sheet.export_json, name="game-export-json"),
    path("games/<token:token>/export.csv", sheet.export_csv_view, name="game-export-csv"),
    path("games/<token:token>/result.svg", sheet.result_svg, name="game-result"),
    path("games/<token:token>/end/", deals.game_end, name="game-end"),
    path("games/<token:token>/players/", seats.game_players, name="game-players"),
    path("games/<token:token>/deals/new/", deals.deal_new, name="deal-new"),
    path("games/<token:token>/deals/undo/", deals.deal_undo, name="deal-undo"),
    path("games/<token:token>/deals/redo/", deals.deal_redo, name="deal-redo"),
    path("games/<token:token>/deals/restore/", deals.deal_restore, name="deal-restore"),
    path("games/<token:token>/deals/<int:number>/edit/", deals.deal_edit, name="deal-edit"),
    path("games/<token:token>/deals/<int:number>/delete/", deals.deal_delete, name="deal-delete"),
    path("games/<token:token>/evenings/", evenings.game_evenings, name="game-evenings"),
    path("tournaments/new/", tournaments.tournament_new, name="tournament-new"),
    path("tournaments/<token:token>/", tournaments.tournament_page, name="tournament"),
    path("tournaments/<token:token>/enter/", tournaments.tournament_enter, name="tournament-enter"),
    path(
        "tournaments/<token:token>/enter/people/",
        tournaments.tournament_enter_people,
        name="tournament-enter-people",
    ),
    path("tournaments/<token:token>/drop/", tournaments.tournament_drop, name="tournament-drop"),
    path("tournaments/<token:token>/links/", tournaments.tournament_link, name="tournament-link"),
    path("tournaments/<token:token>/live/", tournaments.tournament_live, name="tournament-live"),
    path("tournaments/<token:token>/table/", tournaments.tournament_table, name="tournament-table"),
    path(
        "tournaments/<token:token>/series/", tournaments.tournament_series, name="tournament-series"
    ),
    path(
        "tournaments/<token:token>/seating/",
        tournaments.tournament_propose,
        name="tournament-propose",
    ),
    path("tournaments/<token:token>/swap/", tournaments.tournament_swap, name="tournament-swap"),
    path(
        "tournaments/<token:token>/print/cards/",
        tournament_paper.tournament_cards,
        name="tournament-cards",
    ),
    path(
        "tournaments/<token:token>/print/sheets/",
        tournament_paper.tournament_sheets,
        name="tournament-sheets",
    ),
    path(
        "tournaments/<token:token>/print/ranking/",
        tournament_paper.tournament_ranking,
        name="tournament-ranking",
    ),
    path(
        "tournaments/<token:token>/standings.csv",
        tournament_paper.tournament_csv,
        name="tournament-csv",
    ),
    path(
        "tournaments/<token:token>/standings.json",
        tournament_paper.tournament_json,
        name="tournament-json",
    ),
    path(
        "tournaments/<token:token>/result.svg",
        tournament_paper.tournament_result_svg,
        name="tournament-result",
    ),
    path(
        "tournaments/players/<token:token>/confirm/",
        tournaments.tournament_confirm,
        name="tournament-confirm",
    ),
    path(
        "tournaments/players/<token:token>/",
        tournaments.tournament_player,
        name="tournament-player",
    ),
    path("evenings/new/", evenings.evening_new, name="evening-new"),
    path("evenings/<token:token>/", evenings.evening_page, name="evening"),
    path("evenings/<token:token>/table/", tablemode.evening_table_page, name="evening-table"),
    path(
        "evenings/<token:token>/table/version",
        tablemode.evening_table_version,
        name="evening-table-version",
    ),
    path("evenings/<token:token>/games/add/", evenings.evening_add, name="evening-add"),
    path("evenings/<token:token>/games/remove/", evenings.evening_remove, name="evening-remove"),
    path("evenings/<token:token>/carry/", evenings.evening_carry, name="evening-carry"),
    path("evenings/<token:token>/links/", evenings.evening_link, name="evening-link"),
    path("evenings/<token:token>/result.svg", evenings.evening_result_svg, name="evening-result"),
]

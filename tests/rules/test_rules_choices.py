"""The rules and choices of issue 25 on the rules pages, in every language, as a person reads
them; the choices of each page against the list in docs/rules.md; the table of decks on the
rules index against the engine."""

import html
import re
from pathlib import Path

import pytest

from rules import pages
from rules.engine.cards import parse_card
from rules.engine.melds import Placed, validate_meld
from rules.engine.scoring import hand_penalty
from rules.engine.variants import VARIANT_IDS, get_variant
from rules.pages.markup import RenderContext
from rules.pages.words import words

LANGS = ["en", "de", "nb", "pl", "fi", "es"]
DOCS = Path(__file__).resolve().parents[2] / "docs" / "rules.md"


def text(fragment: str) -> str:
    """What a person reads: the tags left out, entities read, spaces collapsed."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", fragment)).split())


def page_html(client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def section(body: str, section_id: str) -> str:
    """The HTML of one section, from its heading to the next heading of its level or above."""
    start = body.index(f'id="{section_id}"')
    level = body[:start].rsplit("<h", 1)[1][0]
    rest = body[start:]
    ends = [m.start() for m in re.finditer(r"<h([1-6])", rest) if m.group(1) <= level]
    return rest[: ends[0]] if ends else rest


def choices(client, lang: str, variant: str) -> str:
    return section(page_html(client, f"/{lang}/rules/{variant}/"), "choices")


def say(phrases: dict[str, str], lang: str) -> str:
    return " ".join(phrases[lang].split())


# --- every page's choices are the docs' list ------------------------------------------------------

DOC_GAMES = {
    "Classic": ("classic",),
    "Nordic": ("contract-nordic",),
    "Spanish": ("contract-spanish",),
    "Rommé": ("romme",),
    "Contract games": ("contract-nordic", "contract-spanish"),
    "All games": VARIANT_IDS,
    "Score pad": (),
    "Evenings": (),
    "Tournaments": (),
}


def doc_choices() -> list[tuple[int, str]]:
    """(number, game) of each item of docs/rules.md#choices."""
    listed = DOCS.read_text(encoding="utf-8").split("\n## Choices\n", 1)[1].split("\n## ", 1)[0]
    return [(int(n), game) for n, game in re.findall(r"^(\d+)\. ([^:\n]+):", listed, re.M)]


def test_the_docs_choices_are_numbered_in_order_and_name_their_game():
    items = doc_choices()
    assert [n for n, _ in items] == list(range(1, len(items) + 1))
    assert {game for _, game in items} <= set(DOC_GAMES)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_each_pages_choices_are_the_docs_choices_of_its_game(client, lang, variant):
    listed = sum(1 for _, game in doc_choices() if variant in DOC_GAMES[game])
    on_page = choices(client, lang, variant).count("<li>")
    assert on_page == listed, f"{lang} {variant}: {on_page} choices on the page, {listed} in docs"


# --- the Spanish game: no identical card added to a meld on the table -----------------------------

SPANISH_RULE = {
    "en": "Nor may you add a card identical to one the meld already holds, the same rank and the "
    "same suit",
    "de": "Du darfst auch keine Karte anlegen, die es in der Kombination schon gibt, mit gleichem "
    "Wert und gleicher Farbe",
    "nb": "Du får heller ikke legge til et kort som kombinasjonen allerede har, med samme valør og "
    "samme farge",
    "pl": "Nie możesz też dołożyć karty, którą układ już ma, tej samej wartości i w tym samym "
    "kolorze",
    "fi": "Et myöskään saa täydentää yhdistelmää kortilla, joka siinä jo on, samaa arvoa ja samaa "
    "maata",
    "es": "Tampoco puedes añadir una carta que la combinación ya tenga, del mismo valor y el mismo "
    "palo",
}
SPANISH_OWN_MELDS = {
    "en": "Your own melds are not bound by it",
    "de": "Für deine eigenen Kombinationen gilt sie nicht",
    "nb": "Dine egne kombinasjoner er ikke bundet av den",
    "pl": "Własnych układów gracza ta zasada nie obejmuje",
    "fi": "Omia yhdistelmiäsi se ei koske",
    "es": "No vale para tus propias combinaciones",
}
SPANISH_READING = {
    "en": "read as the same rank only, no card could ever be added to a set",
    "de": "könnte man an einen Satz nie etwas anlegen",
    "nb": "kunne man aldri legge til noe på et sett",
    "pl": "do zestawu nie dałoby się dołożyć żadnej karty",
    "fi": "kolmikkoa ei voisi koskaan täydentää",
    "es": "nunca se podría añadir nada a un trío",
}
SPANISH_SUMMARY = {
    "en": "never split one or add a card it already holds",
    "de": "nie eine Karte anlegen, die schon darin liegt",
    "nb": "legg aldri til et kort den allerede har",
    "pl": "nie dokładaj karty, którą już mają",
    "fi": "äläkä täydennä niitä kortilla, joka niissä jo on",
    "es": "ni añadir una carta que ya tenga",
}


@pytest.mark.parametrize("lang", LANGS)
def test_the_spanish_pages_forbid_adding_an_identical_card_to_a_meld_on_the_table(client, lang):
    body = page_html(client, f"/{lang}/rules/contract-spanish/")
    opening = text(section(body, "opening"))
    assert say(SPANISH_RULE, lang) in opening
    assert say(SPANISH_OWN_MELDS, lang) in opening
    # the example names the cards: the set on the table, the card allowed, the card refused
    cards = re.findall(r'aria-label="([^"]+)"', section(body, "opening"))
    assert len(cards) >= 5
    assert say(SPANISH_READING, lang) in text(choices(client, lang, "contract-spanish"))
    summary = text(page_html(client, f"/{lang}/rules/contract-spanish/summary/"))
    assert say(SPANISH_SUMMARY, lang) in summary


def test_a_spanish_hands_own_set_may_hold_identical_cards_as_the_pages_say():
    spanish = get_variant("contract-spanish")
    cards = [parse_card(c) for c in ("QS", "QH", "QH")]
    meld = validate_meld([Placed(c, c) for c in cards], spanish)
    assert [p.card for p in meld.placed] == cards


# --- the Spanish game: what the sheet says of decks and the cut, what it leaves open (issue 45) ----

SPANISH_DECKS = {
    "en": "the sheet names Spanish poker decks and accepts French ones of the same size just as well",
    "de": "Das Regelblatt nennt spanische Pokerblätter und lässt französische Blätter gleicher "
    "Größe ebenso zu",
    "nb": "Regelarket nevner spanske kortstokker med pokerkort og godtar franske av samme "
    "størrelse like gjerne",
    "pl": "Opis zasad wymienia hiszpańskie talie pokerowe, ale równie dobrze dopuszcza francuskie",
    "fi": "Sääntölehti mainitsee espanjalaiset pokeripakat ja hyväksyy yhtä hyvin samankokoiset "
    "ranskalaiset",
    "es": "el reglamento nombra barajas españolas de póquer y admite igual las francesas",
}
SPANISH_CUT = {
    "en": "The dealer shuffles, cuts the cards themselves (on this sheet nobody else cuts)",
    "de": "Der Geber mischt, hebt selbst ab (nach diesem Regelblatt hebt niemand sonst ab)",
    "nb": "Giveren stokker, tar av selv (etter dette regelarket tar ingen andre av)",
    "pl": "Rozdający tasuje, sam przekłada talię (według tego opisu nikt inny jej nie przekłada)",
    "fi": "Jakaja sekoittaa, nostaa itse (tämän sääntölehden mukaan kukaan muu ei nosta)",
    "es": "El repartidor baraja, corta él mismo (según este reglamento nadie más corta)",
}
SPANISH_DIRECTION = {
    "en": "says neither which way play goes nor who begins. In the app play goes counter-clockwise",
    "de": "sagt aber weder, in welche Richtung gespielt wird, noch, wer beginnt. In der App wird "
    "gegen den Uhrzeigersinn gespielt",
    "nb": "men sier verken hvilken vei spillet går eller hvem som begynner. I appen går spillet "
    "mot klokken",
    "pl": "ale nie mówi, w którą stronę toczy się gra ani kto zaczyna. W aplikacji gra toczy "
    "się przeciwnie do ruchu wskazówek zegara",
    "fi": "mutta ei kerro, mihin suuntaan peli etenee eikä kuka aloittaa. Sovelluksessa peli "
    "etenee vastapäivään",
    "es": "pero no dice hacia dónde va el juego ni quién empieza. En la aplicación se juega en "
    "sentido contrario a las agujas del reloj",
}


@pytest.mark.parametrize("lang", LANGS)
def test_the_spanish_pages_say_the_decks_the_dealers_cut_and_the_direction_as_a_choice(
    client, lang
):
    body = page_html(client, f"/{lang}/rules/contract-spanish/")
    assert say(SPANISH_DECKS, lang) in text(section(body, "players"))
    assert say(SPANISH_CUT, lang) in text(section(body, "dealing"))
    assert say(SPANISH_DIRECTION, lang) in text(section(body, "choices"))
    assert 'href="#choices"' in section(body, "turn")


# --- the classic game: the checker's order among equal ways, and the decks of its count ----------

CLASSIC_TIES = {
    "en": "but K♥ comes after 9♥",
    "de": "aber K♥ kommt nach 9♥",
    "nb": "men K♥ kommer etter 9♥",
    "pl": "ale K♥ jest po 9♥",
    "fi": "mutta K♥ tulee kortin 9♥ jälkeen",
    "es": "pero K♥ va después de 9♥",
}
CLASSIC_DECKS = {
    "en": "when the number of players is not given, in the fewest decks that hold the hand and "
    "the seen cards",
    "de": "ist die Zahl der Spieler nicht angegeben, in den wenigsten Blättern, die die Hand und "
    "die gesehenen Karten fassen",
    "nb": "er antall spillere ikke oppgitt, i de færreste kortstokkene som rommer hånden og "
    "kortene som er sett",
    "pl": "gdy liczba graczy nie jest podana, w najmniejszej liczbie talii, która mieści rękę i "
    "widziane karty",
    "fi": "jos pelaajien määrää ei ole annettu, pienimmästä pakkamäärästä, johon käsi ja nähdyt "
    "kortit mahtuvat",
    "es": "si no se da el número de jugadores, en el menor número de barajas que contiene la mano "
    "y las cartas vistas",
}


@pytest.mark.parametrize("lang", LANGS)
def test_the_classic_choices_explain_why_the_example_discards_the_king(client, lang):
    # the card faces read as their rank and suit: "K♥"
    listed = re.sub(r" ([♠♥♦♣])", r"\1", text(choices(client, lang, "classic")))
    # the split order, then the discard that sorts last: K♥ after 9♥ of the same split
    assert "3 + 3 + 3 + 3 + 3, 4 + 4 + 4 + 3, 5 + 4 + 3 + 3" in listed
    assert say(CLASSIC_TIES, lang) in listed
    assert say(CLASSIC_DECKS, lang) in listed


# --- the Nordic game: the opening is the contract, the last card may be the discard ---------------

NORDIC_OPENING = {
    "en": "the app lets no extra set or run be laid with it",
    "de": "die App lässt mit ihm keinen zusätzlichen Satz und keine zusätzliche Folge auslegen",
    "nb": "appen lar deg ikke legge ut et ekstra sett eller en ekstra rekke sammen med den",
    "pl": "aplikacja nie pozwala wyłożyć razem z nim dodatkowego zestawu ani sekwensu",
    "fi": "eikä sovellus anna pöydätä sen mukana ylimääräistä kolmikkoa tai suoraa",
    "es": "la aplicación no deja bajar con él ningún trío ni escalera de más",
}
NORDIC_LAST_CARD = {
    "en": "The sheets say only that the player who empties the hand goes out",
    "de": "Die Regelblätter sagen nur, dass fertig wird, wer keine Karte mehr auf der Hand hat",
    "nb": "Regelarkene sier bare at den som tømmer hånden, går ut",
    "pl": "Opisy zasad mówią tylko, że kończy ten, komu nie zostanie żadna karta",
    "fi": "Sääntölehtien mukaan käden tyhjentää se, jolle ei jää yhtään korttia",
    "es": "Los reglamentos solo dicen que cierra quien se queda sin cartas",
}


@pytest.mark.parametrize("lang", LANGS)
def test_the_nordic_opening_and_last_card_are_marked_as_choices(client, lang):
    body = page_html(client, f"/{lang}/rules/contract-nordic/")
    listed = text(section(body, "choices"))
    assert say(NORDIC_OPENING, lang) in listed
    assert say(NORDIC_LAST_CARD, lang) in listed
    # the rule texts point to the choices
    for rule in ("opening", "going-out"):
        assert 'href="#choices"' in section(body, rule), rule


# --- the Nordic game: the turned-up joker, read two ways (issue 45) -------------------------------

NORDIC_JOKER_READINGS = {
    "en": "That can be read two ways: the joker is taken like any other discard and nothing "
    "special happens, or it is an ordinary card, not wild, for whoever takes it. The app takes "
    "the first reading",
    "de": "Das lässt sich zweifach lesen: Der Joker wird genommen wie jede abgelegte Karte, und "
    "sonst geschieht nichts Besonderes; oder er ist für den, der ihn nimmt, eine gewöhnliche "
    "Karte und kein Platzhalter. Die App folgt der ersten Lesart",
    "nb": "Det kan leses på to måter: jokeren tas som et hvilket som helst kastet kort, og ellers "
    "skjer det ikke noe spesielt, eller den er et vanlig kort, ikke vill, for den som tar den. "
    "Appen velger den første lesningen",
    "pl": "Można to czytać dwojako: jokera bierze się jak każdą inną odrzuconą kartę i nic "
    "więcej się nie dzieje albo dla tego, kto go weźmie, jest zwykłą kartą, która nie zastępuje "
    "innych. Aplikacja przyjmuje pierwsze odczytanie",
    "fi": "Sen voi lukea kahdella tavalla: jokerin saa ottaa kuten minkä tahansa heitetyn kortin "
    "eikä muuta erityistä tapahdu, tai se on ottajalleen tavallinen kortti eikä villi. Sovellus "
    "valitsee ensimmäisen tulkinnan",
    "es": "Se puede leer de dos maneras: el joker se coge como cualquier otro descarte y no pasa "
    "nada especial, o es una carta normal, no un comodín, para quien lo coge. La aplicación "
    "sigue la primera lectura",
}


@pytest.mark.parametrize("lang", LANGS)
def test_the_nordic_turned_up_joker_names_both_readings_and_the_apps(client, lang):
    body = page_html(client, f"/{lang}/rules/contract-nordic/")
    assert say(NORDIC_JOKER_READINGS, lang) in text(section(body, "choices"))
    assert 'href="#choices"' in section(body, "dealing")


# --- Rommé: the first turn, the first dealer, the end -----------------------------------------------

ROMME_FIRST_TURN = {
    "en": "On your first turn of a deal you may simply take it and keep it",
    "de": "In deinem ersten Zug einer Runde darfst du sie einfach nehmen und behalten",
    "nb": "På din første tur i en giv kan du rett og slett ta det øverste kortet i kastebunken og "
    "beholde det",
    "pl": "W swoim pierwszym ruchu w rozdaniu możesz po prostu wziąć wierzchnią odrzuconą kartę i "
    "ją zatrzymać",
    "fi": "Jaon ensimmäisellä vuorollasi saat yksinkertaisesti ottaa poistopinon päällimmäisen "
    "kortin ja pitää sen",
    "es": "En tu primer turno de una ronda puedes cogerla sin más y quedártela",
}
ROMME_FIRST_ROUND = {
    "en": "The app reads this as each player's first turn of a deal",
    "de": "Die App versteht darunter den ersten Zug jedes Spielers",
    "nb": "Appen leser det som hver spillers første tur i en giv",
    "pl": "Aplikacja rozumie to jako pierwszy ruch każdego gracza w rozdaniu",
    "fi": "Sovellus tulkitsee tämän kunkin pelaajan ensimmäiseksi vuoroksi jaossa",
    "es": "La aplicación lo entiende como el primer turno de cada jugador",
}
ROMME_FIRST_DEALER = {
    "en": "The sheet does not say how the first dealer is found",
    "de": "Wie der erste Geber bestimmt wird, sagt das Regelblatt nicht",
    "nb": "Regelarket sier ikke hvordan den første giveren blir funnet",
    "pl": "Opis zasad nie mówi, jak wybrać pierwszego rozdającego",
    "fi": "Sääntölehti ei kerro, miten ensimmäinen jakaja valitaan",
    "es": "El reglamento no dice cómo se elige al primer repartidor",
}
ROMME_END = {
    "en": "The sheet does not say when the game ends:",
    "de": "Wann das Spiel endet, sagt das Regelblatt nicht:",
    "nb": "Regelarket sier ikke når spillet slutter:",
    "pl": "Opis zasad nie mówi, kiedy gra się kończy:",
    "fi": "Sääntölehti ei kerro, milloin peli päättyy:",
    "es": "El reglamento no dice cuándo termina la partida:",
}


@pytest.mark.parametrize("lang", LANGS)
def test_romme_says_the_first_turn_and_its_choices_as_english_does(client, lang):
    body = page_html(client, f"/{lang}/rules/romme/")
    assert say(ROMME_FIRST_TURN, lang) in text(section(body, "turn"))
    listed = text(section(body, "choices"))
    for phrases in (ROMME_FIRST_ROUND, ROMME_FIRST_DEALER, ROMME_END):
        assert say(phrases, lang) in listed
    # the natural card every meld needs is the app's choice in every language (issue 45)
    for rule in ("dealing", "end", "wild-cards"):
        assert 'href="#choices"' in section(body, rule), rule


@pytest.mark.parametrize("lang", LANGS)
def test_romme_has_as_many_choices_in_every_language_as_in_english(client, lang):
    english = choices(client, "en", "romme").count("<li>")
    assert choices(client, lang, "romme").count("<li>") == english


# --- every game: a misdeal ---------------------------------------------------------------------------

MISDEAL = {
    "en": "the same dealer gathers the cards and deals again",
    "de": "sammelt derselbe Geber alle Karten ein und gibt neu",
    "nb": "samler samme giver inn kortene og gir på nytt",
    "pl": "ten sam rozdający zbiera karty i rozdaje od nowa",
    "fi": "sama jakaja kerää kortit ja jakaa uudelleen",
    "es": "el mismo repartidor recoge las cartas y reparte de nuevo",
}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_every_game_says_what_happens_on_a_misdeal(client, lang, variant):
    assert say(MISDEAL, lang) in text(choices(client, lang, variant))


# --- a red ace left in hand, the opening minimum's help ---------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_a_red_ace_left_in_hand_is_said_with_its_value_alone(client, lang):
    body = page_html(client, f"/{lang}/rules/contract-nordic/")
    value = hand_penalty([parse_card("AH")], get_variant("contract-nordic"))
    scoring = section(body, "scoring")
    assert f'<span class="num" data-example="penalty">{value}</span>' in scoring
    for shown in re.findall(r'data-example="penalty">([^<]*)<', body):
        left, sep, right = shown.partition(" = ")
        assert not sep or left != right, shown  # never "20 = 20"


def test_a_penalty_sum_of_one_card_is_its_value_and_of_two_a_sum():
    ctx = RenderContext(variant=get_variant("contract-nordic"), lang="en")
    one, _, _ = pages.render_markdown("[[penalty-sum: AH]]", ctx)
    two, _, _ = pages.render_markdown("[[penalty-sum: AH JK]]", ctx)
    nordic = get_variant("contract-nordic")
    ace, joker = (nordic.penalty(parse_card(c)) for c in ("AH", "JK"))
    assert f'data-example="penalty">{ace}</span>' in one
    assert f'data-example="penalty">{ace} + {joker} = {ace + joker}</span>' in two


OPENING_CLAIM = {
    "en": "many tables",
    "de": "vielen Tischen",
    "nb": "mange bord",
    "pl": "wielu stołach",
    "fi": "monessa pöydässä",
    "es": "muchas mesas",
}


@pytest.mark.parametrize("lang", LANGS)
def test_the_opening_minimum_help_names_the_values_without_claiming_what_tables_play(lang):
    help_text = words(lang)["option"]["opening_minimum"]["help"]
    spec = get_variant("romme").option("opening_minimum")
    for value in spec.choices:
        assert str(value) in help_text
    assert OPENING_CLAIM[lang] not in help_text


# --- the rules index: the games' names, decks and jokers ---------------------------------------------

OTHER_CONTINENTAL = {
    "en": "English books and websites also use Continental",
    "de": "Englische Bücher und Webseiten nennen auch ein anderes Spiel",
    "nb": "engelske bøker og nettsider bruker også Continental",
    "pl": "angielskie książki i strony nazywają Continental",
    "fi": "englanninkieliset kirjat ja sivustot käyttävät nimeä Continental",
    "es": "los libros y sitios web en inglés llaman también Continental",
}


@pytest.mark.parametrize("lang", LANGS)
def test_the_index_names_the_games_by_country_and_warns_of_the_other_continental(client, lang):
    names = text(section(page_html(client, f"/{lang}/rules/"), "names"))
    assert say(OTHER_CONTINENTAL, lang) in names
    assert "remik kontynentalny" in names
    assert "Carioca" in names


def test_the_decks_table_of_the_index_is_the_engines():
    ctx = RenderContext(variant=None, lang="en")
    rendered, _, _ = pages.render_markdown("[[table: all-decks]]", ctx)
    rows = re.findall(r"<tr>(.*?)</tr>", rendered, re.S)
    head = re.findall(r"<th[^>]*>([^<]*)</th>", rows[0])
    games = words("en")["games"]
    assert head == ["Players", *(games[v] for v in VARIANT_IDS)]
    variants = [get_variant(v) for v in VARIANT_IDS]
    players = [int(re.search(r"<th[^>]*>(\d+)</th>", r).group(1)) for r in rows[1:]]
    assert players == list(
        range(min(v.min_players for v in variants), max(v.max_players for v in variants) + 1)
    )
    for n, row in zip(players, rows[1:], strict=True):
        cells = [c.replace("\u00a0", " ") for c in re.findall(r"<td>([^<]*)</td>", row)]
        for v, cell in zip(variants, cells, strict=True):
            if not v.min_players <= n <= v.max_players:
                assert cell == "–"
                continue
            # deal by deal, each stretch of equal figures once
            figures = [v.decks(n, d) for d in range(1, (len(v.schedule or ()) or 1) + 1)]
            stretches = [f for i, f in enumerate(figures) if i == 0 or f != figures[i - 1]]
            shown = [tuple(int(x) for x in part.split(" / ")) for part in cell.split(" → ")]
            assert shown == stretches, (v.id, n)


@pytest.mark.parametrize("lang", LANGS)
def test_the_index_shows_the_decks_table_in_its_language(client, lang):
    decks = section(page_html(client, f"/{lang}/rules/"), "decks")
    assert 'class="rules-table all-decks"' in decks
    for vid in VARIANT_IDS:
        assert f">{html.escape(words(lang)['games'][vid])}</th>" in decks

"""The rules pages: every game in every language, card faces, engine numbers, house rules."""

import json
import re
from collections import Counter
from urllib.parse import quote

import pytest
from django.utils import translation

from rules import pages
from rules.engine.cards import parse_card
from rules.engine.melds import MeldError, Placed, find_meld, validate_meld
from rules.engine.scoring import classic_ledger, classic_payment, hand_penalty, penalty_deal
from rules.engine.variants import CLASSIC_PAYMENTS, VARIANT_IDS, get_variant
from rules.pages.markup import PLACEHOLDER_RE, ContentError, RenderContext
from rules.pages.words import words

LANGS = ["en", "de", "nb", "pl", "fi", "es"]
PAGES = [(lang, vid) for lang in LANGS for vid in VARIANT_IDS]
NUMBER = re.compile(r'<span class="num" data-example="([a-z]+)">([^<]*)</span>')
FACE = re.compile(r'<span aria-label="([^"]+)" class="pc[ "]')


@pytest.fixture
def fresh_pages():
    pages.clear_cache()
    yield
    pages.clear_cache()


def body_of(response) -> str:
    assert response.status_code == 200
    return response.content.decode()


def render(text: str, lang: str = "en", variant: str | None = None) -> tuple[str, RenderContext]:
    ctx = RenderContext(variant=get_variant(variant) if variant else None, lang=lang)
    html, _, _ = pages.render_markdown(text, ctx)
    return html, ctx


# --- every page, every language ----------------------------------------------------------------


@pytest.mark.parametrize(("lang", "variant"), PAGES)
def test_every_rules_page_renders_in_every_language(client, lang, variant):
    body = body_of(client.get(f"/{lang}/rules/{variant}/"))
    assert f'<html lang="{lang}">' in body
    # The text is written in the page's language, not a fallback.
    assert f'<article class="rules" lang="{lang}" id="rules-{variant}">' in body
    page = pages.get_page(pages.RULES, variant, lang)
    assert page.lang == lang
    assert page.title
    assert page.essence
    assert f"<h1>{page.title}</h1>" in body
    # Every placeholder became HTML; no inline style (the CSP forbids it).
    assert "[[" not in body
    assert "]]" not in body
    assert "style=" not in body
    # Card examples are drawn as card faces.
    assert len(FACE.findall(body)) >= 10
    ids = re.findall(r' id="([^"]+)"', body)
    assert len(ids) == len(set(ids)), "duplicate ids"


@pytest.mark.parametrize(("lang", "variant"), PAGES)
def test_every_rules_page_has_the_same_sections_and_contents(client, lang, variant):
    body = body_of(client.get(f"/{lang}/rules/{variant}/"))
    page = pages.get_page(pages.RULES, variant, lang)
    assert tuple(e.id for e in page.toc) == pages.SECTION_IDS
    toc = body.split('<nav class="toc"', 1)[1].split("</nav>", 1)[0]
    for section in pages.SECTION_IDS:
        assert f'href="#{section}"' in toc
        assert f'<h2 id="{section}">' in body
    assert 'id="choices"' in body  # the choices the app makes where the sheets are silent
    assert '<dl class="glossary">' in body
    assert 'id="rule-options"' in body


@pytest.mark.parametrize(("lang", "variant"), PAGES)
def test_every_summary_renders_in_every_language(client, lang, variant):
    body = body_of(client.get(f"/{lang}/rules/{variant}/summary/"))
    page = pages.get_page(pages.SUMMARY, variant, lang)
    assert page.lang == lang
    assert f'id="summary-{variant}"' in body
    assert "[[" not in body
    assert "style=" not in body
    assert len(FACE.findall(body)) >= 5
    assert 'id="rule-options"' in body
    assert f'href="/{lang}/rules/{variant}/"' in body  # back to the full rules


@pytest.mark.parametrize("lang", LANGS)
def test_the_index_lists_the_four_games_in_the_pages_language(client, lang):
    body = body_of(client.get(f"/{lang}/rules/"))
    assert pages.get_page(pages.INDEX, None, lang).lang == lang
    for variant in VARIANT_IDS:
        title = pages.get_page(pages.RULES, variant, lang).title
        assert f'<a href="/{lang}/rules/{variant}/">{title}</a>' in body
        assert f'href="/{lang}/rules/{variant}/summary/"' in body
    assert "[[" not in body


@pytest.mark.parametrize("lang", LANGS)
def test_an_unknown_game_is_not_found(client, lang):
    assert client.get(f"/{lang}/rules/poker/").status_code == 404
    assert client.get(f"/{lang}/rules/poker/summary/").status_code == 404


def test_an_unknown_language_prefix_is_not_found(client):
    assert client.get("/xx/rules/classic/").status_code == 404


# --- links between pages --------------------------------------------------------------------------


def test_a_page_links_to_itself_in_the_other_languages_and_to_the_other_games(client):
    body = body_of(client.get("/de/rules/romme/"))
    langs = body.split('<nav class="rules-langs"', 1)[1].split("</nav>", 1)[0]
    for lang in LANGS:
        if lang != "de":
            assert f'<a href="/{lang}/rules/romme/" hreflang="{lang}" lang="{lang}">' in langs
    games = body.split('<nav class="rules-games"', 1)[1].split("</nav>", 1)[0]
    for variant in VARIANT_IDS:
        assert (f'href="/de/rules/{variant}/"' in games) == (variant != "romme")


def test_the_language_links_keep_the_games_house_rules(client):
    body = body_of(client.get("/en/rules/classic/?twos_wild=false"))
    assert 'href="/pl/rules/classic/?twos_wild=false"' in body
    # and so does the link to the summary
    assert 'href="/en/rules/classic/summary/?twos_wild=false"' in body


# --- card faces ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lang", "label", "rank"),
    [
        ("en", "queen of hearts", "Q"),
        ("de", "Herz-Dame", "D"),
        ("nb", "hjerter dame", "D"),
        ("pl", "dama kier", "D"),
        ("fi", "herttarouva", "Q"),
        ("es", "reina de corazones", "Q"),
    ],
)
def test_a_card_is_drawn_with_the_languages_rank_letter_and_an_accessible_name(lang, label, rank):
    html, _ = render("[[cards: QH]]", lang)
    assert html == (
        f'<p><span class="pcs"><span aria-label="{label}" class="pc red" role="img">'
        f'<span class="pc-rank">{rank}</span><span class="pc-suit">♥</span></span></span></p>'
    )


def test_black_suits_are_not_red_and_a_joker_is_marked():
    html, _ = render("[[cards: 10S JK]]")
    assert 'aria-label="ten of spades" class="pc" role="img"' in html
    assert 'aria-label="joker" class="pc joker" role="img"' in html
    assert '<span class="pc-suit">★</span>' in html


def test_a_wild_card_shows_the_card_it_stands_for():
    html, _ = render("[[cards: JK=2D]]", "de")
    assert 'aria-label="Joker als Karo-Zwei" class="pc joker wild"' in html
    assert '<span class="pc-as red">2♦</span>' in html


def test_groups_of_cards_are_separated():
    html, _ = render("[[cards: 4S 5S | AD]]")
    assert len(re.findall('class="pc[ "]', html)) == 3
    assert '<span aria-hidden="true" class="pcs-sep">·</span>' in html


def test_a_refused_meld_is_marked_for_eyes_and_ears():
    html, _ = render("[[no-meld: KS AS 2S]]", "pl", "classic")
    assert '<span class="pcs meld refused">' in html
    assert '<span class="visually-hidden"> to nie jest układ</span>' in html


@pytest.mark.parametrize(
    "source",
    ["[[cards: 1X]]", "[[cards: ]]", "[[shuffle: AS]]", "[[penalty: classic AS]]", "[[table: x]]"],
)
def test_a_bad_placeholder_is_an_error_naming_it(source):
    with pytest.raises(ContentError, match=re.escape(source.split(":")[0].strip("[]"))):
        render(source, "en", "contract-nordic")


def test_a_meld_example_needs_a_games_page():
    with pytest.raises(ContentError):
        render("[[meld: 4S 5S 6S]]")


# --- the numbers are the engine's ----------------------------------------------------------------


def _payment(pairs: dict) -> int:
    return classic_payment(
        wild_twos=int(pairs.get("wild_twos", 0)),
        jokers=int(pairs.get("jokers", 0)),
        first_turn=pairs.get("first_turn"),
        one_suit=pairs.get("one_suit") == "true",
        twos_wild=pairs.get("twos_wild") != "false",
    ).total


def _pairs(text: str) -> dict:
    return dict(token.split("=", 1) for token in text.split() if "=" in token)


def _cards(text: str):
    return [parse_card(t.split("=")[0]) for t in text.replace(",", " ").replace("|", " ").split()]


def _expected_numbers(source: str, variant_id: str) -> Counter:
    """(kind, text) of every number the page must show, worked out here with the engine."""
    expected: Counter = Counter()
    variant = get_variant(variant_id)
    for m in re.finditer(PLACEHOLDER_RE, source):
        name, args = m.group(1), m.group(2) or ""
        if name in ("payment", "payment-sum"):
            pairs = _pairs(args)
            payment = classic_payment(
                wild_twos=int(pairs.get("wild_twos", 0)),
                jokers=int(pairs.get("jokers", 0)),
                first_turn=pairs.get("first_turn"),
                one_suit=pairs.get("one_suit") == "true",
                twos_wild=pairs.get("twos_wild") != "false",
            )
            text = str(payment.total)
            if name == "payment-sum":
                text = " + ".join(str(r.points) for r in payment.rows) + f" = {payment.total}"
            expected["payment", text] += 1
        elif name == "gain":
            pairs = _pairs(args)
            n = int(pairs.pop("players"))
            gain = classic_ledger(range(n), 0, _payment(pairs))[0]
            expected["gain", str(gain)] += 1
        elif name == "pay":
            expected["pay", str(CLASSIC_PAYMENTS[args.strip()])] += 1
        elif name in ("penalty", "penalty-sum"):
            tokens = args.split()
            v = get_variant(tokens.pop(0)) if tokens and tokens[0] in VARIANT_IDS else variant
            cards = _cards(" ".join(tokens))
            total = hand_penalty(cards, v)
            text = str(total)
            if name == "penalty-sum":
                text = " + ".join(str(v.penalty(c)) for c in cards) + f" = {total}"
            expected["penalty", text] += 1
        elif name == "ledger":
            pairs = _pairs(args)
            players = pairs.pop("players").split(",")
            winner = pairs.pop("winner")
            for amount in classic_ledger(players, winner, _payment(pairs)).values():
                expected["ledger", f"+{amount}" if amount > 0 else f"−{-amount}"] += 1
        elif name == "deal":
            pairs = _pairs(args)
            handromme = pairs.pop("handromme", "false") == "true"
            options = {k: pairs.pop(k) for k in list(pairs) if k.startswith("handromme_")}
            went_out = next(p for p, v in pairs.items() if v == "out")
            left = {p: _cards(v) for p, v in pairs.items() if v != "out"}
            scores = penalty_deal(variant, list(pairs), went_out, left, handromme, options)
            for score in scores.values():
                expected["deal", str(score)] += 1
    return expected


@pytest.mark.parametrize(("lang", "variant"), PAGES)
@pytest.mark.parametrize("kind", [pages.RULES, pages.SUMMARY])
def test_the_worked_examples_show_the_engines_numbers(client, lang, variant, kind):
    url = f"/{lang}/rules/{variant}/" + ("summary/" if kind == pages.SUMMARY else "")
    body = body_of(client.get(url))
    source = pages.content_path(kind, variant, lang).read_text(encoding="utf-8")
    shown = Counter((k, text) for k, text in NUMBER.findall(body) if k not in ("fact", "opening"))
    assert shown == _expected_numbers(source, variant)


@pytest.mark.parametrize("lang", LANGS)
def test_the_sheets_worked_examples_come_out_as_the_sheets_say(client, lang):
    classic = body_of(client.get(f"/{lang}/rules/classic/"))
    # Four players, one joker and one wild 2: each pays 1 + 1 + 2 = 4, the winner +12.
    assert '<span class="num" data-example="payment">1 + 1 + 2 = 4</span>' in classic
    assert '<span class="num" data-example="gain">12</span>' in classic
    assert classic.count('<span class="num" data-example="ledger">−4</span>') == 3
    # Without any wild card: 1 + 10 = 11 each, the winner +33.
    assert '<span class="num" data-example="payment">1 + 10 = 11</span>' in classic
    assert '<span class="num" data-example="gain">33</span>' in classic
    # The example hand that draws a joker: 1 + 2 = 3.
    assert '<span class="num" data-example="payment">1 + 2 = 3</span>' in classic
    nordic = body_of(client.get(f"/{lang}/rules/contract-nordic/"))
    assert '<span class="num" data-example="penalty">5 + 5 + 10 = 20</span>' in nordic
    assert '<span class="num" data-example="penalty">20 + 50 = 70</span>' in nordic


def test_the_sheets_example_hand_goes_out_as_the_page_says():
    from rules.engine.check import check_hand

    result = check_hand(
        {"variant": "classic", "cards": "4S 5S 6S 7S 9H 10H JH QH 10C JC QC KC AD 3D KH JK"}
    )
    assert result["goes_out"] is True
    assert result["payment"] == classic_payment(wild_twos=0, jokers=1).total == 3
    assert result["discard"] == "KH"


def test_romme_opening_values_follow_the_card_values():
    html, _ctx = render("[[opening-sum: 7H 8H 9H | QS QH QD]] [[opening: AS 2S 3S]]", "en", "romme")
    assert '<span class="num" data-example="opening">24 + 30 = 54</span>' in html
    # An ace in A-2-3 counts 11 for the opening (docs/rules.md#romme).
    assert '<span class="num" data-example="opening">16</span>' in html
    html, _ = render("[[opening: 5C JK=6C 7C]]", "en", "romme")
    assert '<span class="num" data-example="opening">18</span>' in html


def test_the_decks_table_takes_its_numbers_from_the_engine():
    html, _ = render("[[table: decks]]", "en", "contract-spanish")
    spanish = get_variant("contract-spanish")
    for deal in (1, 3, 5):
        decks, jokers = spanish.decks(8, deal)
        assert f"<td>{decks}</td>\n<td>{jokers}</td>" in html
    assert '<th rowspan="3" scope="rowgroup">5–8</th>\n<td>1–2</td>' in html
    assert "<tr>\n<td>5–7</td>\n<td>4</td>\n<td>8</td>\n</tr>" in html
    assert '<th scope="row">2–3</th>\n<td>1–7</td>\n<td>2</td>\n<td>4</td>' in html
    html, _ = render("[[table: decks]]", "en", "classic")
    assert '<th scope="row">9–12</th>\n<td>4</td>\n<td>4</td>' in html


def test_the_contract_table_follows_the_schedule():
    html, _ = render("[[table: schedule]]", "de", "contract-spanish")
    assert "<td>2 Folgen und 1 Satz</td>" not in html  # sets come first
    assert '<th scope="row">6</th>\n<td>1 Satz und 2 Folgen</td>\n<td>11</td>\n<td>11</td>' in html


def test_the_schedule_table_says_each_contract_as_the_checker_and_the_score_pad_do():
    """One writer of the contract text: the rules pages' table, the checker's deal line and the
    score pad's filter give the same words for every deal, in every language."""
    from rules.pages.words import contract_text
    from scorepad.templatetags.scorepad import contract

    for lang in ("en", "de", "pl"):
        html, _ = render("[[table: schedule]]", lang, "contract-nordic")
        for spec in get_variant("contract-nordic").schedule:
            with translation.override(lang):
                text = contract(spec)
            assert text == contract_text(spec, lang)
            assert f"<td>{text}</td>" in html


@pytest.mark.parametrize(("lang", "variant"), PAGES)
def test_meld_examples_agree_with_the_engine(lang, variant):
    page = pages.get_page(pages.RULES, variant, lang)
    summary = pages.get_page(pages.SUMMARY, variant, lang)
    examples = [e for e in page.examples + summary.examples if e.kind in ("meld", "no-meld")]
    assert any(e.kind == "meld" for e in examples)
    v = get_variant(variant)
    for example in examples:
        drawn = example.value
        try:
            if any(d.stands_for for d in drawn):
                validate_meld([Placed(d.card, d.stands_for or d.card) for d in drawn], v)
            else:
                find_meld([d.card for d in drawn], v)
            valid = True
        except MeldError:
            valid = False
        assert valid == (example.kind == "meld"), f"{lang} {variant}: {example.args}"


# --- house rules of the reader's game ------------------------------------------------------------


def _option(body: str, name: str) -> str:
    return body.split(f'id="option-{name}"', 1)[1].split("</li>", 1)[0]


def test_without_a_game_the_house_rules_show_their_defaults(client):
    body = body_of(client.get("/en/rules/classic/"))
    assert "Default: <b>on</b>" in _option(body, "twos_wild")
    assert "Your game" not in body
    assert 'class="rule-option changed"' not in body


@pytest.mark.parametrize(
    "query",
    [
        "?twos_wild=false",
        "?options=" + quote(json.dumps({"twos_wild": False})),
        "?options=twos_wild%3Dfalse",
        "?options=twos_wild:off",
    ],
)
def test_a_games_house_rules_are_marked(client, query):
    body = body_of(client.get("/en/rules/classic/" + query))
    option = _option(body, "twos_wild")
    assert body.count('class="rule-option changed"') == 1
    assert "<mark>Your game: <b>off</b></mark>" in option
    assert "differs from the default" in option
    assert '<a href="#house-rules">' in body  # the note at the top points to the section


def test_only_the_options_that_differ_are_marked_as_changed(client):
    body = body_of(client.get("/de/rules/romme/?opening_minimum=40&joker_in_each_hand=true"))
    assert "<mark>Euer Spiel: <b>40</b></mark>" in _option(body, "opening_minimum")
    assert 'class="rule-option changed" id="option-opening_minimum"' in body
    for name in ("ace_low_is_one", "handromme_doubles", "joker_in_each_hand"):
        assert 'class="rule-option" id="option-' + name in body
        assert "<mark>Euer Spiel:" in _option(body, name)


def test_house_rules_that_cannot_be_read_are_named_and_left_out(client):
    query = "?options=" + quote(json.dumps({"opening_minimum": 45, "no_such_rule": True}))
    body = body_of(client.get("/en/rules/romme/" + query))
    note = body.split('<div class="rules-note error" role="alert">', 1)[1].split("</div>", 1)[0]
    assert "<code>opening_minimum=45</code>" in note
    assert "<code>no_such_rule=true</code>" in note
    assert "<mark>Your game: <b>51</b></mark>" in _option(body, "opening_minimum")


def test_an_unreadable_options_parameter_is_named(client):
    body = body_of(client.get("/en/rules/classic/?options=%5B1%5D"))
    assert "<code>options=[1]</code>" in body


def test_the_summary_marks_the_house_rules_too(client):
    body = body_of(client.get("/nb/rules/contract-nordic/summary/?no_may_i_last_three=true"))
    assert 'class="rule-option changed" id="option-no_may_i_last_three"' in body


def test_a_game_without_switches_says_so(client):
    body = body_of(client.get("/es/rules/contract-spanish/"))
    assert words("es")["options"]["none"] in body


def test_other_query_parameters_are_ignored(client):
    body = body_of(client.get("/en/rules/classic/?utm_source=x"))
    assert "Your game" not in body
    assert "rules-note error" not in body


# --- rendered once ---------------------------------------------------------------------------------


def test_pages_are_rendered_once_not_on_every_request(client, monkeypatch, fresh_pages):
    calls = []
    real = pages.render_markdown

    def counting(text, ctx):
        calls.append((ctx.variant.id if ctx.variant else None, ctx.lang))
        return real(text, ctx)

    monkeypatch.setattr(pages, "render_markdown", counting)
    body_of(client.get("/fi/rules/romme/"))
    first = len(calls)
    # The page itself and the titles of the other three games.
    assert first == len(VARIANT_IDS)
    for _ in range(3):
        body_of(client.get("/fi/rules/romme/"))
        body_of(client.get("/fi/rules/romme/?handromme_doubles=true"))
        body_of(client.get("/fi/rules/"))
    assert len(calls) == first + 1  # the index text, once
    body_of(client.get("/fi/rules/romme/summary/"))
    body_of(client.get("/fi/rules/romme/summary/"))
    assert len(calls) == first + 2
    assert Counter(calls)[("romme", "fi")] == 2  # the rules and the summary, once each


# --- the words of each language --------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_every_language_has_all_the_words_english_has(lang):
    english, other = words("en"), words(lang)
    for section in ("page", "options", "tables", "payments", "cards", "option", "games"):
        assert set(other[section]) == set(english[section]), section
    for name in english["option"]:
        assert set(other["option"][name]) == {"label", "help"}
    assert len(other["cards"]["ranks"]) == 13


@pytest.mark.parametrize("lang", LANGS)
def test_the_glossary_has_the_same_entries_in_every_language(lang):
    english, other = words("en")["glossary"], words(lang)["glossary"]
    assert [e.get("variants") for e in other] == [e.get("variants") for e in english]
    terms = [e["term"] for e in other]
    assert all(terms)
    assert all(e["text"] for e in other)


def test_every_option_of_the_engine_has_words_in_every_language():
    names = {o.name for vid in VARIANT_IDS for o in get_variant(vid).options}
    for lang in LANGS:
        assert names <= set(words(lang)["option"])


def test_the_stylesheet_prints_the_summary_without_navigation():
    from django.conf import settings

    css = (settings.BASE_DIR / "static" / "css" / "app.css").read_text()
    rules = css.split("Rules pages", 1)[1]
    print_rules = rules.split("@media print", 1)[1]
    assert ".top" in print_rules
    assert ".rules-langs" in print_rules


@pytest.mark.parametrize(
    ("variant", "rows"),
    [
        ("contract-nordic", [("2–9", "5"), ("10, J, Q, K", "10"), ("A", "20"), ("Joker", "50")]),
        (
            "contract-spanish",
            [("2–7", "5"), ("8, 9, 10, J, Q, K", "10"), ("A", "20"), ("Joker", "50")],
        ),
        ("romme", [("2–10", "face value"), ("J, Q, K", "10"), ("A", "11"), ("Joker", "20")]),
    ],
)
def test_the_penalty_table_groups_the_engines_card_values(variant, rows):
    html, _ = render("[[table: penalties]]", "en", variant)
    shown = re.findall(r'<th scope="row">([^<]+)</th>\n<td>([^<]+)</td>', html)
    assert shown == rows


def test_the_link_from_a_game_marks_its_house_rules(client):
    from django.utils import translation

    with translation.override("de"):
        url = pages.rules_url("romme", {"opening_minimum": 40, "joker_in_each_hand": True})
        assert url == "/de/rules/romme/?opening_minimum=40#house-rules"
        assert pages.rules_url("classic") == "/de/rules/classic/#house-rules"
        summary = pages.rules_url("classic", {"twos_wild": False}, summary=True)
        assert summary == "/de/rules/classic/summary/?twos_wild=false"
    body = body_of(client.get(url.split("#")[0]))
    assert 'class="rule-option changed" id="option-opening_minimum"' in body
    assert body_of(client.get(summary)).count('class="rule-option changed"') == 1


@pytest.mark.parametrize(
    ("lang", "may"),
    [
        ("en", "You may lay the contract on any turn once you hold it (you need not)"),
        ("de", "Den Kontrakt darf man auslegen, sobald man ihn hat"),
        ("nb", "Når du har kontrakten, kan du legge den ut (du må ikke)"),
        ("pl", "Gdy masz kontrakt, możesz go wyłożyć (nie musisz)"),
        ("fi", "Kun sinulla on sopimus, saat pöytää sen (ei ole pakko)"),
        ("es", "Cuando tengas el contrato, puedes bajarlo (no es obligatorio)"),
    ],
)
def test_the_spanish_games_summary_says_the_contract_may_be_laid_not_must(client, lang, may):
    """Issue 45, rules: the sheet lets a player lay the contract; it does not make them as
    soon as they hold it, as four summaries said."""
    body = body_of(client.get(f"/{lang}/rules/contract-spanish/summary/"))
    assert may in re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", body))

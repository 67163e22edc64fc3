import pytest
from django.urls import reverse

LANGS = ["en", "de", "nb", "pl", "fi", "es"]


@pytest.mark.parametrize("lang", LANGS)
def test_home_page_answers_in_every_language_prefix(client, lang):
    response = client.get(f"/{lang}/")
    assert response.status_code == 200
    assert f'<html lang="{lang}">' in response.content.decode()


def test_home_page_lists_the_four_variants_with_facts_from_the_engine(client):
    body = client.get("/en/").content.decode()
    for variant_id in ("classic", "contract-nordic", "contract-spanish", "romme"):
        assert f'id="variant-{variant_id}"' in body
    # classic: 2-12 players, decks by player count, 15 cards
    assert "2–12 players" in body
    assert "9–12 players: 4 decks and 4 jokers" in body
    assert "15 cards each" in body
    # contract-spanish: decks change with the deal for 5-8 players
    assert (
        "5–8 players: deals 1–2: 2 decks and 4 jokers; deals 3–4: 3 decks and 6 jokers; deals 5–7: 4 decks and 8 jokers"
        in body
    )
    assert "6 to 12 cards each" in body
    # romme: the starting player's extra card comes from the engine
    assert "14 cards each, 15 for the starting player" in body


def test_root_redirects_by_accept_language(client):
    response = client.get("/", HTTP_ACCEPT_LANGUAGE="pl,en;q=0.5")
    assert response.status_code == 302
    assert response["Location"] == "/pl/"


def test_language_switcher_links_to_the_same_page(client):
    body = client.get("/de/api/").content.decode()
    for lang in LANGS:
        assert f'href="/language/{lang}/api/"' in body
        assert client.get(f"/language/{lang}/api/")["Location"] == f"/{lang}/api/"


def test_pages_carry_a_content_security_policy_without_unsafe_inline(client):
    response = client.get("/en/")
    csp = response["Content-Security-Policy"]
    assert "script-src 'self'" in csp
    assert "default-src 'none'" in csp
    assert "unsafe-inline" not in csp
    assert "unsafe-eval" not in csp


def test_htmx_is_served_from_our_own_static_files(client):
    body = client.get("/en/").content.decode()
    assert '<script src="/static/django_htmx/htmx' in body or "/static/django_htmx/" in body
    assert "https://" not in body.split("<body")[0]


def test_csrf_token_travels_in_hx_headers(client):
    body = client.get("/en/").content.decode()
    assert 'hx-headers=\'{"X-CSRFToken": "' in body


def test_api_docs_page_names_every_option(client):
    body = client.get(reverse("api-docs")).content.decode()
    for name in (
        "twos_wild",
        "no_may_i_last_three",
        "opening_minimum",
        "handromme_doubles",
        "joker_in_each_hand",
        "ace_low_is_one",
    ):
        assert name in body


def test_home_page_links_to_the_score_pad_the_checker_and_the_rules(client):
    body = client.get("/en/").content.decode()
    assert 'href="/en/games/new/"' in body
    assert 'href="/en/check/"' in body
    assert 'href="/en/rules/"' in body
    for variant_id in ("classic", "contract-nordic", "contract-spanish", "romme"):
        assert f'href="/en/rules/{variant_id}/"' in body
        assert f'href="/en/check/?variant={variant_id}"' in body
        assert client.get(f"/en/check/?variant={variant_id}", follow=True).status_code == 200


@pytest.mark.django_db
def test_a_nul_character_in_a_form_gets_a_clear_400(client):
    response = client.post("/en/games/new/", {"name": "Anna\x00"})
    assert response.status_code == 400
    assert "cannot be stored" in response.content.decode()
    assert client.get("/en/check/?cards=AS\x00").status_code == 400


def test_the_language_switcher_remembers_the_choice_for_the_front_door(client, db):
    body = client.get("/en/rules/classic/?twos_wild=false").content.decode()
    assert 'href="/language/de/rules/classic/?twos_wild=false"' in body
    answer = client.get("/language/de/rules/classic/?twos_wild=false")
    assert answer.status_code == 302
    assert answer["Location"] == "/de/rules/classic/?twos_wild=false"
    assert client.cookies["django_language"].value == "de"
    # "/" opens in the language chosen last, before the browser's own
    front = client.get("/", HTTP_ACCEPT_LANGUAGE="fi")
    assert front.status_code == 302
    assert front["Location"] == "/de/"


def test_without_a_choice_the_front_door_follows_the_browser(client, db):
    front = client.get("/", HTTP_ACCEPT_LANGUAGE="fi,en;q=0.5")
    assert front["Location"] == "/fi/"


@pytest.mark.parametrize("rest", ["/evil.example/", "\\evil.example/"])
def test_the_switcher_goes_only_to_a_page_of_the_site_in_that_language(client, db, rest):
    answer = client.get(f"/language/de/{rest}")
    assert answer.status_code in (302, 404)
    if answer.status_code == 302:
        assert answer["Location"].startswith("/de/")  # a path of this site, never a host


def test_an_unknown_language_is_not_found_and_remembers_nothing(client, db):
    assert client.get("/language/xx/rules/").status_code == 404
    assert "django_language" not in client.cookies

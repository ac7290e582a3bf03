"""Sessions of a small Porto Alegre coffee-and-kitchen-gear shop and the agent that maintains its code.

    from gen_shop import make_session
    session = make_session(seed=1, messages=400)

The founder writes in Brazilian Portuguese mixed with English dev words ("beleza", "tá", "pô", "bora"),
sometimes wholly in one language. The shop is a Django 5 monolith (Postgres, Celery on Redis), a Go
service quoting shipping from Correios and Melhor Envio, a React admin, Pix and Mercado Pago payments,
NF-e emission through an API provider, Docker Compose on a Hetzner VM, Sentry for errors.

Tool results look like the real things: Django tracebacks, ``manage.py migrate`` and ``showmigrations``,
pytest-django runs, Celery worker logs, ``go test``/``go build``/``go vet``, psql tables and ``EXPLAIN
ANALYZE`` plans, Postgres logs, ``docker compose`` output, Sentry issue JSON, Mercado Pago and Pix webhook
payloads, NF-e provider rejections, nginx logs, ``curl -v``, settings.py, .env, docker-compose.yml,
models.py, Go source and CSV exports. The user pastes other people's texts (the accountant's email, a
customer's complaint, Mercado Pago's checklist, the designer's handover, the Correios contract, a WhatsApp
thread with the warehouse, the LGPD consultant's report); those are listed in ``session.pasted`` and their
imperatives are not the user's unless the user says them again in their own words.
"""

from __future__ import annotations

import json
import random
from bisect import bisect_right
from typing import Any

from sessiongen import Fact, Message, Session, text_of

KINDS = ("instruction", "correction", "decision", "error", "file", "identifier", "finding", "plan")
TOOLS = ("bash", "read_file", "write_file", "edit_file", "psql", "manage_py", "go", "docker", "sentry")
SMALLEST = 60
PER_MESSAGE = 1560  # characters a message on average: 400 messages ~ 620k, 3000 ~ 4.7M
LO, HI = 0.04, 0.8  # where facts are aimed, as fractions of the session (they land before 88%)

SYSTEM = """You are a coding agent working in the repository of Grão Sul Cafés (lojagraosul.com.br), a small online \
shop in Porto Alegre that sells specialty coffee and kitchen gear.

Stack:
- shop/: Django 5.0 monolith (Python 3.12), PostgreSQL 16, Celery 5.4 workers with Redis 7 as broker and cache
- shipping/: Go 1.22 service that quotes shipping with the Correios and Melhor Envio APIs (port 8081)
- admin/: React 18 admin (Vite, TypeScript) served by nginx
- payments: Pix and Mercado Pago (Checkout Pro + webhooks); NF-e emitted through an API provider
- deploy: Docker Compose on a Hetzner VM (ubuntu 24.04), nginx in front, Sentry for errors

Tools: bash, read_file, write_file, edit_file, psql (read-only replica unless told otherwise), manage_py, go, \
docker, sentry. Prefer small, reviewable changes. Never print secrets from .env. Answer in the language the \
user writes in."""

# --- small helpers ------------------------------------------------------------------------------------------

HEX = "0123456789abcdef"
ALNUM = "abcdefghijklmnopqrstuvwxyz0123456789"
UPPER = "ABCDEFGHJKLMNPQRSTUVWXYZ"


def per_kind(messages: int) -> int:
    """Facts of each kind: 1 at 60 messages, 6 at 400, 12 at 3000 and beyond, linear in between."""
    if messages <= 60:
        return 1
    if messages <= 400:
        return max(1, round(1 + 5 * (messages - 60) / 340))
    if messages <= 3000:
        return round(6 + 6 * (messages - 400) / 2600)
    return 12


def _hex(rng: random.Random, k: int) -> str:
    return "".join(rng.choice(HEX) for _ in range(k))


def _alnum(rng: random.Random, k: int) -> str:
    return "".join(rng.choice(ALNUM) for _ in range(k))


def _digits(rng: random.Random, k: int) -> str:
    return str(rng.randint(1, 9)) + "".join(str(rng.randint(0, 9)) for _ in range(k - 1))


def _uuid(rng: random.Random) -> str:
    return f"{_hex(rng, 8)}-{_hex(rng, 4)}-4{_hex(rng, 3)}-{rng.choice('89ab')}{_hex(rng, 3)}-{_hex(rng, 12)}"


def _day(rng: random.Random) -> tuple[int, int]:
    return rng.choice((4, 5)), rng.randint(1, 28)


def _ts(rng: random.Random, sep: str = " ", ms: bool = True) -> str:
    mo, d = _day(rng)
    base = f"2026-{mo:02d}-{d:02d}{sep}{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d}"
    return base + (f",{rng.randint(0, 999):03d}" if ms else "")


def _money(rng: random.Random, lo: float = 20, hi: float = 900) -> str:
    return f"{rng.uniform(lo, hi):.2f}"


def _client_ip(rng: random.Random) -> str:
    first = rng.choice((177, 179, 186, 187, 189, 191, 200, 201))
    return f"{first}.{rng.randint(0, 255)}.{rng.randint(0, 255)}.{rng.randint(1, 254)}"


FIRST_NAMES = ("Ana", "Bruno", "Camila", "Diego", "Eduarda", "Felipe", "Gabriela", "Henrique", "Isabela", "João",
               "Larissa", "Marcelo", "Natália", "Otávio", "Paula", "Rafael", "Sabrina", "Tiago", "Vanessa", "Willian")
LAST_NAMES = ("Silva", "Souza", "Oliveira", "Pereira", "Lima", "Carvalho", "Ribeiro", "Almeida", "Machado", "Rocha",
              "Schmitt", "Becker", "Kunz", "Zanella", "Bertoldi", "Fagundes")
CITIES = (("Porto Alegre", "RS", "90"), ("Canoas", "RS", "92"), ("Caxias do Sul", "RS", "95"), ("Pelotas", "RS", "96"),
          ("Florianópolis", "SC", "88"), ("Curitiba", "PR", "80"), ("São Paulo", "SP", "04"), ("Campinas", "SP", "13"),
          ("Belo Horizonte", "MG", "30"), ("Rio de Janeiro", "RJ", "22"), ("Recife", "PE", "50"),
          ("Salvador", "BA", "40"), ("Manaus", "AM", "69"), ("Goiânia", "GO", "74"))
PRODUCTS = (("CAF-CERR-250", "Café Cerrado Mineiro 250g", 49.9), ("CAF-MANT-500", "Café Mantiqueira 500g", 89.0),
            ("CAF-SULM-250", "Café Sul de Minas Natural 250g", 54.5), ("CAF-CAPA-1KG", "Café Caparaó 1kg", 159.0),
            ("MOE-HARIO-MSS", "Moedor Hario Mini Slim", 289.0), ("V60-CER-02", "Hario V60 Cerâmica 02", 219.9),
            ("FLT-V60-100", "Filtro V60 02 (100un)", 39.9), ("CHL-6CUP", "Chemex 6 xícaras", 459.0),
            ("BAL-TIMEMORE", "Balança Timemore Black Mirror", 379.0), ("KET-FELLOW", "Chaleira Fellow Stagg EKG", 1290.0),
            ("AERO-GO", "AeroPress Go", 329.0), ("PRS-FRENCH-1L", "Prensa Francesa 1L", 149.0),
            ("CAN-ESM-300", "Caneca esmaltada 300ml", 69.9), ("KIT-PRESENTE", "Kit Presente Barista", 399.0))
STATUSES = ("pending_payment", "paid", "invoiced", "shipped", "delivered", "canceled", "refunded")
APP_TASKS = ("orders.tasks.emit_nfe", "orders.tasks.send_order_confirmation", "shipping.tasks.refresh_tracking",
             "payments.tasks.reconcile_mercadopago", "payments.tasks.expire_pix_charges", "catalog.tasks.sync_stock",
             "orders.tasks.abandon_cart_reminder", "fiscal.tasks.poll_nfe_status", "shipping.tasks.buy_label")
FILLER_PATHS = ("shop/orders/models.py", "shop/orders/views.py", "shop/orders/tasks.py", "shop/orders/admin.py",
                "shop/payments/webhooks.py", "shop/payments/mercadopago.py", "shop/payments/pix.py",
                "shop/fiscal/client.py", "shop/fiscal/tasks.py", "shop/shipping/client.py", "shop/checkout/views.py",
                "shop/checkout/forms.py", "shop/config/settings.py", "shop/catalog/models.py",
                "shipping/internal/quote/quote.go", "shipping/internal/correios/client.go",
                "shipping/internal/melhorenvio/client.go", "shipping/cmd/server/main.go",
                "admin/src/pages/Orders.tsx", "admin/src/api/client.ts", "tests/test_checkout.py",
                "tests/test_webhooks.py", "tests/test_nfe.py", "docker-compose.yml", "deploy/nginx/loja.conf")


def _pick(rng: random.Random, seq: Any, k: int) -> list[Any]:
    return rng.sample(list(seq), min(k, len(seq)))


def _name(rng: random.Random) -> str:
    return f"{rng.choice(FIRST_NAMES)} {rng.choice(LAST_NAMES)}"


def _fill(lines: list[str], size: int, make: Any) -> list[str]:
    """Append lines from ``make()`` until the lines hold about ``size`` characters."""
    total = sum(len(x) + 1 for x in lines)
    while total < size:
        line = make()
        lines.append(line)
        total += len(line) + 1
    return lines


def _insert(rng: random.Random, lines: list[str], extra: list[str], lo: float = 0.3, hi: float = 0.8) -> list[str]:
    """Put ``extra`` (consecutive lines) somewhere in the middle of ``lines``."""
    if not extra:
        return lines
    at = int(len(lines) * rng.uniform(lo, hi)) if lines else 0
    return lines[:at] + extra + lines[at:]


# --- Django, pytest, Celery, manage.py ------------------------------------------------------------------------

SITE = "/usr/local/lib/python3.12/site-packages"
DJANGO_FRAMES = (
    (f"{SITE}/django/core/handlers/exception.py", 55, "inner", "response = get_response(request)"),
    (f"{SITE}/django/core/handlers/base.py", 197, "_get_response",
     "response = wrapped_callback(request, *callback_args, **callback_kwargs)"),
    (f"{SITE}/django/views/decorators/csrf.py", 65, "_view_wrapper", "return view_func(request, *args, **kwargs)"),
    (f"{SITE}/django/views/generic/base.py", 104, "view", "return self.dispatch(request, *args, **kwargs)"),
    (f"{SITE}/django/db/models/query.py", 679, "create", "obj.save(force_insert=True, using=self.db)"),
    (f"{SITE}/django/db/models/base.py", 822, "save", "self.save_base("),
    (f"{SITE}/django/db/models/base.py", 1009, "_save_table", "results = self._do_insert("),
    (f"{SITE}/django/db/backends/utils.py", 79, "_execute_with_wrappers", "return executor(sql, params, many, context)"),
    (f"{SITE}/django/db/backends/utils.py", 105, "_execute", "return self.cursor.execute(sql, params)"),
    (f"{SITE}/django/db/transaction.py", 263, "__exit__", "connection.commit()"),
    (f"{SITE}/celery/app/trace.py", 453, "trace_task", "R = retval = fun(*args, **kwargs)"),
    (f"{SITE}/celery/app/trace.py", 736, "__protected_call__", "return self.run(*args, **kwargs)"),
    (f"{SITE}/requests/adapters.py", 713, "send", "raise ReadTimeout(e, request=request)"),
    (f"{SITE}/redis/connection.py", 357, "connect", "raise ConnectionError(self._error_message(e))"),
)
APP_FRAMES = (
    ("/app/shop/payments/webhooks.py", "mercadopago_webhook", "payment = Payment.objects.create(**data)"),
    ("/app/shop/payments/pix.py", "confirm_pix", "charge = PixCharge.objects.select_for_update().get(txid=txid)"),
    ("/app/shop/orders/tasks.py", "emit_nfe", "resp = client.emitir(order.to_nfe_payload())"),
    ("/app/shop/fiscal/client.py", "emitir", "r = self.session.post(url, json=payload, timeout=self.timeout)"),
    ("/app/shop/checkout/views.py", "post", "quote = shipping.quote(cart, cep=form.cleaned_data['cep'])"),
    ("/app/shop/shipping/client.py", "quote", "resp = self.http.get(f'{self.base}/quote', params=params)"),
    ("/app/shop/orders/models.py", "mark_paid", "self.save(update_fields=['status', 'paid_at'])"),
    ("/app/shop/orders/services.py", "total_with_shipping", "return self.subtotal + quote['valor']"),
    ("/app/shop/catalog/tasks.py", "sync_stock", "Product.objects.filter(sku=sku).update(stock=F('stock') - qty)"),
)
FILLER_EXC = (
    "KeyError: 'external_reference'",
    "orders.models.Order.DoesNotExist: Order matching query does not exist.",
    "TypeError: unsupported operand type(s) for +: 'decimal.Decimal' and 'float'",
    "django.db.utils.OperationalError: server closed the connection unexpectedly",
    "requests.exceptions.ReadTimeout: HTTPSConnectionPool(host='api.melhorenvio.com.br', port=443): Read timed out. "
    "(read timeout=10)",
    "redis.exceptions.ConnectionError: Error 111 connecting to redis:6379. Connection refused.",
    "django.core.exceptions.ValidationError: ['CEP inválido: informe 8 dígitos.']",
    "AttributeError: 'NoneType' object has no attribute 'chave_acesso'",
    "json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)",
    "decimal.InvalidOperation: [<class 'decimal.ConversionSyntax'>]",
)
URLS = ("/checkout/", "/checkout/pix/confirmar/", "/webhooks/mercadopago/", "/webhooks/pix/", "/api/frete/cotacao/",
        "/carrinho/adicionar/", "/admin/orders/order/", "/api/admin/orders/", "/minha-conta/pedidos/")


def django_traceback(rng: random.Random, final: str | None = None, web: bool = True) -> list[str]:
    lines = []
    if web and rng.random() < 0.6:
        lines.append(f"Internal Server Error: {rng.choice(URLS)}")
    lines.append("Traceback (most recent call last):")
    top = sorted(rng.sample(range(4), rng.randint(2, 4))) if web else []
    low = sorted(rng.sample(range(4, len(DJANGO_FRAMES)), rng.randint(2, 4)))
    for i in [*top, -1, *low]:
        if i < 0:
            path, func, code = rng.choice(APP_FRAMES)
            lines += [f'  File "{path}", line {rng.randint(20, 400)}, in {func}', f"    {code}"]
            continue
        path, line, func, code = DJANGO_FRAMES[i]
        lines += [f'  File "{path}", line {line}, in {func}', f"    {code}", "    " + "^" * min(len(code), 40)]
    if final is None and rng.random() < 0.15:
        final = ('django.db.utils.IntegrityError: duplicate key value violates unique constraint '
                 f'"orders_order_mp_preference_id_{_hex(rng, 8)}_uniq"\nDETAIL:  Key (mp_preference_id)=({_digits(rng, 9)}-'
                 f'{_uuid(rng)}) already exists.')
    lines.append(final or rng.choice(FILLER_EXC))
    return lines


TEST_FILES = ("tests/test_catalog.py", "tests/test_cart.py", "tests/test_checkout.py", "tests/test_webhooks.py",
              "tests/test_pix.py", "tests/test_nfe.py", "tests/test_shipping_client.py", "tests/test_orders_admin.py",
              "tests/test_accounts.py", "tests/test_coupons.py", "tests/test_stock.py", "tests/test_emails.py",
              "tests/api/test_admin_api.py", "tests/api/test_orders_api.py", "tests/test_tasks.py")
FILLER_FAILS = (("tests/test_coupons.py::test_cupom_expirado_nao_aplica", "AssertionError: assert 200 == 400"),
                ("tests/test_emails.py::test_confirmation_template_has_tracking",
                 "AssertionError: assert 'Rastreio' in '<html>...'"),
                ("tests/test_stock.py::test_sync_stock_concurrent", "django.db.utils.OperationalError: database is locked"),
                ("tests/api/test_admin_api.py::test_list_orders_paginated", "KeyError: 'next'"),
                ("tests/test_cart.py::test_cart_merge_on_login", "assert 3 == 2"))


def pytest_run(rng: random.Random, size: int, fails: list[tuple[str, str]] | None = None,
               fail_lines: list[str] | None = None, clean: bool = False) -> str:
    """A pytest-django run; ``fail_lines`` are whole 'FAILED ...' lines to put in the short summary."""
    fails = list(fails or [])
    fail_lines = list(fail_lines or [])
    if not fails and not fail_lines and not clean and rng.random() < 0.25:
        fails = [rng.choice(FILLER_FAILS)]
    n_failed = len(fails) + len(fail_lines)
    collected = rng.randint(300, 420)
    lines = ["============================= test session starts ==============================",
             "platform linux -- Python 3.12.3, pytest-8.2.1, pluggy-1.5.0",
             f"django: version: 5.0.{rng.randint(4, 7)}, settings: config.settings.test (from ini)",
             "rootdir: /app", "configfile: pytest.ini",
             "plugins: django-4.8.0, xdist-3.6.1, cov-5.0.0, freezegun-0.4.2, mock-3.14.0, Faker-25.2.0",
             f"collected {collected} items", ""]
    verbose = size > 2500
    if verbose:
        body = _fill([], size - 1400, lambda: f"{rng.choice(TEST_FILES)}::test_{rng.choice(WORDS)}_{rng.choice(WORDS)}"
                     f"{rng.choice(('', '_' + rng.choice(WORDS)))} PASSED")
        for i, line in enumerate(body):
            lines.append(line.ljust(72) + f"[{100 * (i + 1) // len(body):3d}%]")
    else:
        done, per = 0, collected // len(TEST_FILES)
        for path in TEST_FILES:
            k = min(collected - done, rng.randint(per - 5, per + 5)) if path != TEST_FILES[-1] else collected - done
            done += k
            marks = "".join("F" if rng.random() < 0.01 * n_failed else "." for _ in range(max(k, 1)))
            lines.append(f"{path} {marks[:60]}".ljust(72) + f"[{100 * done // collected:3d}%]")
    if n_failed:
        lines += ["", "=================================== FAILURES ==================================="]
        for node, msg in fails + [(fl.split(" ", 2)[1], fl.split(" - ", 1)[-1]) for fl in fail_lines]:
            test = node.split("::")[-1]
            lines += [f"{'_' * 20} {test} {'_' * 20}", "", f"    def {test}(client, db, django_capture_on_commit_callbacks):",
                      "        order = OrderFactory(status='pending_payment')",
                      "        payload = load_fixture('webhook_payment_approved.json')",
                      "        resp = client.post(url, payload, content_type='application/json')",
                      ">       " + "assert " + msg.split(": ", 1)[-1].replace("assert ", ""),
                      f"E       {msg}", "", f"{node.split('::')[0]}:{rng.randint(30, 300)}: AssertionError"]
        lines += ["----------------------------- Captured log call ------------------------------"]
        lines += [f"WARNING  shop.payments.webhooks:webhooks.py:{rng.randint(40, 120)} webhook sem assinatura válida"]
    lines.append("=========================== short test summary info ============================")
    lines += [f"FAILED {node} - {msg}" for node, msg in fails] + fail_lines
    secs = f"{rng.uniform(30, 95):.2f}"
    verdict = f"{n_failed} failed, {collected - n_failed} passed" if n_failed else f"{collected} passed"
    if rng.random() < 0.4:
        verdict += f", {rng.randint(1, 4)} skipped"
    lines.append(f"{'=' * 16} {verdict} in {secs}s {'=' * 16}")
    return "\n".join(lines)


WORDS = ("pedido", "frete", "cupom", "estoque", "pix", "boleto", "nfe", "webhook", "carrinho", "cliente", "cep",
         "checkout", "reembolso", "rastreio", "admin", "login", "email", "desconto", "produto", "parcelas")


def celery_line(rng: random.Random, task: str | None = None, prefix: str = "") -> str:
    ts = _ts(rng)
    task = task or rng.choice(APP_TASKS)
    worker = f"ForkPoolWorker-{rng.randint(1, 8)}"
    r = rng.random()
    if r < 0.35:
        return f"{prefix}[{ts}: INFO/MainProcess] Task {task}[{_uuid(rng)}] received"
    if r < 0.75:
        return f"{prefix}[{ts}: INFO/{worker}] Task {task}[{_uuid(rng)}] succeeded in {rng.uniform(0.01, 9):.3f}s: None"
    if r < 0.85:
        return (f"{prefix}[{ts}: WARNING/{worker}] {task}[{_uuid(rng)}]: Retry in {rng.choice((30, 60, 120, 300))}s: "
                f"ReadTimeout(ReadTimeoutError(\"HTTPSConnectionPool(host='api.focusnfe.com.br', port=443): Read timed out.\"))")
    if r < 0.93:
        return f"{prefix}[{ts}: INFO/Beat] Scheduler: Sending due task {task.rsplit('.', 1)[-1]} ({task})"
    return (f"{prefix}[{ts}: ERROR/{worker}] Task {task}[{_uuid(rng)}] raised unexpected: "
            f"OperationalError('server closed the connection unexpectedly')")


def celery_logs(rng: random.Random, size: int, extra: list[str] | None = None, prefix: str = "") -> str:
    lines = [f"{prefix} -------------- celery@worker-{_hex(rng, 6)} v5.4.0 (opalescent)",
             f"{prefix}--- ***** ----- .> transport:   redis://redis:6379/0",
             f"{prefix}-- ******* ---- .> concurrency: {rng.choice((4, 6, 8))} (prefork)",
             f"{prefix}[queues]  .> celery  exchange=celery(direct) key=celery  .> nfe  exchange=nfe(direct) key=nfe"]
    lines = _fill(lines, size, lambda: celery_line(rng, prefix=prefix))
    return "\n".join(_insert(rng, lines, extra or []))


MIGRATIONS = {
    "orders": ("0001_initial", "0002_order_customer_cpf", "0003_orderitem_unit_price_decimal", "0004_order_status_idx",
               "0005_order_shipping_fields", "0006_order_tracking_code", "0007_alter_order_status_choices",
               "0008_order_coupon", "0009_order_nfe_fk", "0010_order_paid_at", "0011_order_abandoned_cart",
               "0012_order_melhorenvio_id", "0013_alter_orderitem_sku", "0014_order_notes_internal"),
    "payments": ("0001_initial", "0002_payment_mp_payment_id", "0003_pixcharge", "0004_pixcharge_expires_at",
                 "0005_payment_status_detail", "0006_webhookevent", "0007_webhookevent_signature_ok",
                 "0008_refund"),
    "fiscal": ("0001_initial", "0002_nota_chave_acesso", "0003_nota_protocolo", "0004_nota_cancelamento",
               "0005_cartacorrecao", "0006_nota_ambiente"),
    "shipping": ("0001_initial", "0002_shipment_service_code", "0003_shipment_label_url", "0004_trackingevent"),
    "catalog": ("0001_initial", "0002_product_weight_dimensions", "0003_product_ncm", "0004_stockmovement",
                "0005_product_active_idx"),
}


def showmigrations(rng: random.Random, pending: int = 0) -> str:
    lines = []
    for app in ("admin", "auth", "contenttypes", "sessions") + tuple(MIGRATIONS):
        lines.append(app)
        names = MIGRATIONS.get(app, ("0001_initial", "0002_logentry_remove_auto_add", "0003_logentry_add_action_flag_choices"))
        for i, name in enumerate(names):
            mark = " " if app == "orders" and i >= len(names) - pending else "X"
            lines.append(f" [{mark}] {name}")
    return "\n".join(lines)


def migrate_output(rng: random.Random, final: list[str] | None = None) -> str:
    apps = ", ".join(("admin", "auth", "catalog", "checkout", "contenttypes", "fiscal", "orders", "payments",
                      "sessions", "shipping"))
    lines = ["Operations to perform:", f"  Apply all migrations: {apps}", "Running migrations:"]
    if final:
        lines.append(f"  Applying {rng.choice(tuple(MIGRATIONS))}.{rng.choice(MIGRATIONS['orders'])}...Traceback "
                     "(most recent call last):")
        lines += django_traceback(rng, final[0], web=False)[1:] + final[1:]
    elif rng.random() < 0.5:
        app = rng.choice(tuple(MIGRATIONS))
        for name in _pick(rng, MIGRATIONS[app], rng.randint(1, 3)):
            lines.append(f"  Applying {app}.{name}... OK ({rng.uniform(0.01, 4):.3f}s)")
    else:
        lines.append("  No migrations to apply.")
    return "\n".join(lines)


# --- Go -------------------------------------------------------------------------------------------------------

GO_MOD = "github.com/graosul/shipping"
GO_PKGS = ("internal/quote", "internal/correios", "internal/melhorenvio", "internal/cache", "internal/httpapi",
           "internal/cep", "internal/pkg/money", "cmd/server")
GO_TESTS = ("TestQuotePAC", "TestQuoteSEDEX", "TestQuoteJadlogPackage", "TestCEPNormalize", "TestCEPRange",
            "TestMoneyRound", "TestCacheKey", "TestCacheTTL", "TestHandlerQuote", "TestHandlerHealth",
            "TestMelhorEnvioAuthRefresh", "TestCorreiosTokenExpiry", "TestParallelQuotesTimeout",
            "TestDimensoesCubagem", "TestPesoMinimo", "TestFreteGratisRegra")


def go_test(rng: random.Random, size: int, fail: list[str] | None = None, verbose: bool | None = None) -> str:
    """``go test ./...``; ``fail`` are lines to print inside a failing package (a '--- FAIL' line first)."""
    verbose = size > 1500 if verbose is None else verbose
    lines: list[str] = []
    failing = rng.choice(GO_PKGS[:6]) if fail else None
    for pkg in GO_PKGS:
        if pkg == "cmd/server":
            lines.append(f"?   \t{GO_MOD}/{pkg}\t[no test files]")
            continue
        if verbose:
            for t in _pick(rng, GO_TESTS, rng.randint(3, 8)):
                lines += [f"=== RUN   {t}", f"--- PASS: {t} ({rng.uniform(0, 0.09):.2f}s)"]
                if rng.random() < 0.4:
                    sub = f"{t}/{rng.choice(('cep_', 'peso_', 'caso_'))}{rng.randint(1, 40)}"
                    lines += [f"=== RUN   {sub}", f"    --- PASS: {sub} ({rng.uniform(0, 0.05):.2f}s)"]
        if pkg == failing:
            lines += list(fail or []) + ["FAIL", f"FAIL\t{GO_MOD}/{pkg}\t{rng.uniform(0.1, 2):.3f}s"]
        else:
            lines.append(f"ok  \t{GO_MOD}/{pkg}\t{rng.uniform(0.01, 2):.3f}s" + ("" if verbose else "\t(cached)" * (rng.random() < 0.3)))
    if verbose and size > len("\n".join(lines)) + 400:
        extra = _fill([], size - len("\n".join(lines)), lambda: (
            f"    quote_test.go:{rng.randint(20, 300)}: cotação {rng.choice(('PAC', 'SEDEX', '.Package', 'Mini Envios'))} "
            f"cep={rng.randint(10000, 99999)}-{rng.randint(0, 999):03d} peso={rng.uniform(0.2, 12):.2f}kg "
            f"prazo={rng.randint(1, 12)}d ok"))
        lines = _insert(rng, lines, extra, 0.05, 0.4)
    if fail:
        lines.append("FAIL")
    return "\n".join(lines)


def go_build_error(rng: random.Random, line: str | None = None) -> str:
    pkg = rng.choice(GO_PKGS[:5])
    fn = pkg.split("/")[-1]
    errs = [f"{pkg}/{fn}.go:{rng.randint(20, 300)}:{rng.randint(2, 40)}: "
            + rng.choice(("declared and not used: resp", "missing return", "undefined: ctxTimeout",
                          "cannot use peso (variable of type float32) as float64 value in argument to cubagem",
                          f"too many arguments in call to {fn}.New"))]
    if line:
        errs.append(line)
    return "\n".join([f"# {GO_MOD}/{pkg}", *rng.sample(errs, len(errs))])


def go_vet(rng: random.Random, line: str | None = None) -> str:
    lines = []
    if rng.random() < 0.5 or line:
        pkg = rng.choice(GO_PKGS[:5])
        lines.append(f"# {GO_MOD}/{pkg}")
        if rng.random() < 0.5:
            lines.append(f"{pkg}/client.go:{rng.randint(20, 200)}:{rng.randint(2, 30)}: the cancel function returned "
                         "by context.WithTimeout should be called, not discarded, to avoid a context leak")
        if line:
            lines.append(line)
    return "\n".join(lines)


# --- Postgres -------------------------------------------------------------------------------------------------

def table(headers: list[str], rows: list[list[str]], footer: bool = True) -> str:
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(headers)]
    out = [" " + " | ".join(h.center(w) for h, w in zip(headers, widths)),
           "-" + "-+-".join("-" * w for w in widths) + "-"]
    for r in rows:
        out.append(" " + " | ".join(c.rjust(w) if c.replace(".", "").isdigit() else c.ljust(w)
                                    for c, w in zip(r, widths)))
    if footer:
        out.append(f"({len(rows)} row{'s' if len(rows) != 1 else ''})")
    return "\n".join(out)


def _order_row(rng: random.Random) -> list[str]:
    city = rng.choice(CITIES)
    return [str(rng.randint(20000, 69999)), rng.choice(STATUSES), _money(rng), _money(rng, 0, 60),
            f"{city[2]}{rng.randint(0, 999):03d}-{rng.randint(0, 999):03d}", city[0],
            _ts(rng, ms=False) + f".{rng.randint(0, 999999):06d}+00"]


def psql_orders(rng: random.Random, size: int, extra_row: list[str] | None = None) -> str:
    headers = ["id", "status", "total", "shipping_cost", "cep", "city", "created_at"]
    rows: list[list[str]] = []
    per = 110
    rows = [_order_row(rng) for _ in range(max(3, size // per))]
    if extra_row:
        rows.insert(rng.randint(0, len(rows)), extra_row)
    return table(headers, rows)


def psql_payments(rng: random.Random, size: int, extra_row: list[str] | None = None) -> str:
    headers = ["id", "order_id", "method", "mp_payment_id", "status", "status_detail", "amount", "updated_at"]
    details = {"approved": "accredited", "pending": "pending_waiting_transfer", "rejected": "cc_rejected_other_reason",
               "in_process": "pending_contingency", "refunded": "refunded"}
    rows = []
    for _ in range(max(3, size // 130)):
        st = rng.choice(tuple(details))
        rows.append([str(rng.randint(10000, 60000)), str(rng.randint(20000, 69999)), rng.choice(("pix", "credit_card")),
                     "1" + _digits(rng, 10), st, details[st], _money(rng), _ts(rng, ms=False) + "+00"])
    if extra_row:
        rows.insert(rng.randint(0, len(rows)), extra_row)
    return table(headers, rows)


def psql_stat_statements(rng: random.Random, size: int) -> str:
    headers = ["calls", "mean_ms", "total_ms", "query"]
    qs = ("SELECT \"orders_order\".\"id\", \"orders_order\".\"status\" FROM \"orders_order\" WHERE \"orders_order\".\"status\" = $1",
          "UPDATE \"catalog_product\" SET \"stock\" = (\"catalog_product\".\"stock\" - $1) WHERE \"catalog_product\".\"sku\" = $2",
          "SELECT COUNT(*) AS \"__count\" FROM \"orders_orderitem\" INNER JOIN \"orders_order\" ON (...)",
          "INSERT INTO \"payments_webhookevent\" (\"source\", \"payload\", \"received_at\") VALUES ($1, $2, $3)",
          "SELECT \"fiscal_nota\".* FROM \"fiscal_nota\" WHERE \"fiscal_nota\".\"status\" IN ($1, $2) ORDER BY \"id\"",
          "SELECT \"django_session\".\"session_data\" FROM \"django_session\" WHERE \"session_key\" = $1")
    rows = [[str(rng.randint(50, 900000)), f"{rng.uniform(0.05, 900):.2f}", f"{rng.uniform(100, 9e6):.1f}", rng.choice(qs)]
            for _ in range(max(3, size // 190))]
    return table(headers, rows)


PLAN_NODES = ("Seq Scan on orders_order", "Index Scan using orders_order_status_idx on orders_order",
              "Bitmap Heap Scan on orders_orderitem", "Index Only Scan using catalog_product_sku_key on catalog_product",
              "Seq Scan on payments_webhookevent", "Hash Join", "Nested Loop", "Sort", "HashAggregate")


def explain(rng: random.Random, size: int, extra: list[str] | None = None, exec_ms: str | None = None) -> str:
    lines = [f"{rng.choice(('Limit', 'Sort', 'Gather Merge'))}  (cost=0.{rng.randint(10, 99)}..{rng.randint(100, 99999)}.{rng.randint(10, 99)} "
             f"rows={rng.randint(1, 500)} width={rng.randint(8, 200)}) (actual time={rng.uniform(1, 9000):.3f}..{rng.uniform(1, 9000):.3f} "
             f"rows={rng.randint(1, 500)} loops=1)"]
    depth = 1

    def node() -> str:
        nonlocal depth
        depth = max(1, min(6, depth + rng.choice((-1, 0, 1))))
        pad = "  " * depth + "->  "
        r = rng.random()
        if r < 0.5:
            return (f"{pad}{rng.choice(PLAN_NODES)}  (cost={rng.uniform(0, 500):.2f}..{rng.uniform(500, 90000):.2f} rows={rng.randint(1, 400000)} "
                    f"width={rng.randint(4, 300)}) (actual time={rng.uniform(0, 50):.3f}..{rng.uniform(50, 9000):.3f} "
                    f"rows={rng.randint(0, 400000)} loops={rng.randint(1, 4)})")
        if r < 0.7:
            return "  " * depth + "      Filter: ((status)::text = ANY ('{paid,invoiced}'::text[]))"
        if r < 0.85:
            return "  " * depth + f"      Rows Removed by Filter: {rng.randint(10, 900000)}"
        return "  " * depth + f"      Buffers: shared hit={rng.randint(10, 90000)} read={rng.randint(0, 50000)}"
    lines = _fill(lines, size - 200, node)
    lines = _insert(rng, lines, extra or [])
    lines += [f"Planning Time: {rng.uniform(0.05, 4):.3f} ms",
              f"Execution Time: {exec_ms or f'{rng.uniform(1, 3000):.3f} ms'}", "(%d rows)" % (len(lines) + 2)]
    return "\n".join(lines)


def pg_log_line(rng: random.Random) -> str:
    ts = _ts(rng, ms=False) + f".{rng.randint(0, 999):03d} UTC [{rng.randint(1000, 99999)}]"
    r = rng.random()
    if r < 0.4:
        return (f"{ts} LOG:  duration: {rng.uniform(500, 4000):.3f} ms  statement: SELECT \"orders_order\".\"id\" "
                f"FROM \"orders_order\" WHERE \"orders_order\".\"created_at\" >= '2026-0{rng.randint(3, 5)}-01' ORDER BY 1 DESC")
    if r < 0.6:
        return f"{ts} LOG:  checkpoint complete: wrote {rng.randint(100, 9000)} buffers ({rng.uniform(0, 9):.1f}%); " \
               f"0 WAL file(s) added, 0 removed, {rng.randint(0, 3)} recycled; write={rng.uniform(0, 30):.3f} s"
    if r < 0.75:
        return f"{ts} LOG:  automatic vacuum of table \"loja.public.{rng.choice(('orders_order', 'catalog_product', 'django_session'))}\": index scans: 1"
    if r < 0.8:
        return (f"{ts} ERROR:  deadlock detected\n{ts} DETAIL:  Process {rng.randint(1000, 9999)} waits for ShareLock on transaction "
                f"{rng.randint(1000, 99999)}; blocked by process {rng.randint(1000, 9999)}.\n{ts} STATEMENT:  UPDATE \"catalog_product\" "
                f"SET \"stock\" = (\"catalog_product\".\"stock\" - 1) WHERE \"catalog_product\".\"sku\" = 'CAF-MANT-500'")
    if r < 0.9:
        return f"{ts} LOG:  connection authorized: user=loja database=loja application_name=gunicorn"
    return f"{ts} ERROR:  canceling statement due to user request"


def pg_log(rng: random.Random, size: int, extra: list[str] | None = None) -> str:
    return "\n".join(_insert(rng, _fill([], size, lambda: pg_log_line(rng)), extra or []))


# --- Docker, nginx, curl --------------------------------------------------------------------------------------

SERVICES = (("web", "ghcr.io/graosul/shop:{v}", '"gunicorn config.wsg…"', "8000/tcp"),
            ("celery", "ghcr.io/graosul/shop:{v}", '"celery -A config wo…"', ""),
            ("celery-nfe", "ghcr.io/graosul/shop:{v}", '"celery -A config wo…"', ""),
            ("beat", "ghcr.io/graosul/shop:{v}", '"celery -A config be…"', ""),
            ("shipping", "ghcr.io/graosul/shipping:{v}", '"/usr/local/bin/ship…"', "8081/tcp"),
            ("admin", "ghcr.io/graosul/admin:{v}", '"/docker-entrypoint.…"', "80/tcp"),
            ("nginx", "nginx:1.27-alpine", '"/docker-entrypoint.…"', "0.0.0.0:80->80/tcp, 0.0.0.0:443->443/tcp"),
            ("db", "postgres:16.3", '"docker-entrypoint.s…"', "5432/tcp"),
            ("redis", "redis:7.2-alpine", '"docker-entrypoint.s…"', "6379/tcp"))


def compose_ps(rng: random.Random) -> str:
    v = f"2026.0{rng.randint(4, 5)}.{rng.randint(1, 9)}"
    rows = [f"{'NAME':<20}{'IMAGE':<37}{'COMMAND':<26}{'SERVICE':<12}{'CREATED':<15}{'STATUS':<26}PORTS"]
    for svc, image, cmd, ports in SERVICES:
        status = rng.choice(("Up 2 days (healthy)", "Up 5 hours", "Up 41 minutes (healthy)", "Up 3 days"))
        if rng.random() < 0.08:
            status = "Restarting (1) 12 seconds ago"
        rows.append(f"{'loja-' + svc + '-1':<20}{image.format(v=v):<37}{cmd:<26}{svc:<12}{'2 days ago':<15}{status:<26}{ports}")
    return "\n".join(rows)


def gunicorn_line(rng: random.Random) -> str:
    r = rng.random()
    ts = f"[{_ts(rng, ms=False)} +0000]"
    if r < 0.5:
        return (f'{_client_ip(rng)} - - [{rng.randint(1, 28):02d}/May/2026:{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}:'
                f'{rng.randint(0, 59):02d} +0000] "{rng.choice(("GET", "POST"))} {rng.choice(URLS)} HTTP/1.1" '
                f'{rng.choice((200, 200, 200, 302, 404, 201))} {rng.randint(200, 90000)} "-" "Mozilla/5.0"')
    if r < 0.7:
        return f"{ts} [{rng.randint(7, 40)}] [INFO] Booting worker with pid: {rng.randint(7, 400)}"
    if r < 0.85:
        return f"{ts} [1] [WARNING] Worker with pid {rng.randint(7, 400)} was terminated due to signal 9"
    return f"{ts} [{rng.randint(7, 40)}] [INFO] shop.payments.webhooks: webhook mercadopago topic=payment id={_digits(rng, 11)}"


def compose_logs(rng: random.Random, size: int, extra: list[str] | None = None, service: str | None = None) -> str:
    def line() -> str:
        svc = service or rng.choice(("web", "celery", "celery-nfe", "nginx", "redis", "db", "shipping"))
        pre = f"loja-{svc}-1".ljust(18) + "| "
        if svc in ("celery", "celery-nfe"):
            return celery_line(rng, prefix=pre)
        if svc == "nginx":
            return pre + nginx_line(rng)
        if svc == "db":
            return pre + pg_log_line(rng)
        if svc == "redis":
            return pre + f"1:M {rng.randint(1, 28):02d} May 2026 {rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d}" \
                f".{rng.randint(0, 999):03d} * {rng.choice(('Background saving started by pid 412', 'DB saved on disk', '10 changes in 300 seconds. Saving...'))}"
        if svc == "shipping":
            return pre + (f'time={_ts(rng, "T", False)}Z level=INFO msg="quote" servico={rng.choice(("PAC", "SEDEX", ".Package"))} '
                          f"cep_destino={rng.randint(10000, 99999)} duration_ms={rng.randint(80, 4000)}")
        return pre + gunicorn_line(rng)
    return "\n".join(_insert(rng, _fill([], size, line), extra or []))


def docker_stats(rng: random.Random, extra: str | None = None) -> str:
    rows = ["CONTAINER ID   NAME               CPU %     MEM USAGE / LIMIT     MEM %     NET I/O           BLOCK I/O         PIDS"]
    for svc, *_ in SERVICES:
        mem = f"{rng.uniform(20, 900):.1f}MiB / {rng.choice(('1GiB', '2GiB', '512MiB'))}"
        if extra and svc == "celery-nfe":
            mem = extra
        rows.append(f"{_hex(rng, 12)}   {'loja-' + svc + '-1':<18} {rng.uniform(0, 120):.2f}%".ljust(50)
                    + f"{mem:<22}{rng.uniform(1, 99):.2f}%    {rng.uniform(1, 900):.1f}MB / {rng.uniform(1, 900):.1f}MB   "
                    + f"{rng.uniform(0, 9):.1f}GB / {rng.uniform(0, 900):.0f}MB   {rng.randint(2, 40)}")
    return "\n".join(rows)


def nginx_line(rng: random.Random) -> str:
    method, url = rng.choice((("GET", "/"), ("GET", "/produto/cafe-mantiqueira-500g/"), ("POST", "/checkout/"),
                              ("POST", "/webhooks/mercadopago/"), ("GET", "/api/frete/cotacao/?cep=9{0}"),
                              ("GET", "/static/js/app.{1}.js"), ("POST", "/webhooks/pix/"), ("GET", "/api/admin/orders/?page={2}")))
    url = url.format(rng.randint(1000000, 9999999), _hex(rng, 8), rng.randint(1, 40))
    status = rng.choice((200, 200, 200, 200, 301, 304, 404, 499, 502, 500))
    return (f'{_client_ip(rng)} - - [{rng.randint(1, 28):02d}/May/2026:{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}:'
            f'{rng.randint(0, 59):02d} -0300] "{method} {url} HTTP/2.0" {status} {rng.randint(0, 60000)} "-" '
            f'"{rng.choice(("Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X)", "MercadoPago WebHook v1.0", "Mozilla/5.0 (Windows NT 10.0; Win64; x64)", "okhttp/4.12.0"))}" '
            f'rt={rng.uniform(0.001, 3):.3f} uct="0.000" urt="{rng.uniform(0.001, 3):.3f}"')


def nginx_logs(rng: random.Random, size: int, extra: list[str] | None = None) -> str:
    return "\n".join(_insert(rng, _fill([], size, lambda: nginx_line(rng)), extra or []))


def curl_v(rng: random.Random, url: str, status: int, body: str, method: str = "GET") -> str:
    host = url.split("/")[2]
    path = "/" + url.split("/", 3)[3]
    ip = rng.choice(("54.232.181.12", "18.231.66.201", "104.18.22.41", "172.18.0.6"))
    lines = [f"*   Trying {ip}:443...", f"* Connected to {host} ({ip}) port 443",
             "* ALPN: curl offers h2,http/1.1", "* TLSv1.3 (OUT), TLS handshake, Client hello (1):",
             "* TLSv1.3 (IN), TLS handshake, Server hello (2):", "* SSL connection using TLSv1.3 / TLS_AES_256_GCM_SHA384",
             "* Server certificate:", f"*  subject: CN={host}",
             f"*  start date: Mar {rng.randint(1, 28):2d} 00:00:00 2026 GMT",
             f"*  expire date: {rng.choice(('Jun', 'Jul', 'Aug', 'Sep'))} {rng.randint(1, 28):2d} 23:59:59 2026 GMT",
             "*  issuer: C=US; O=Let's Encrypt; CN=R11", "*  SSL certificate verify ok.",
             f"> {method} {path} HTTP/2", f"> Host: {host}", "> User-Agent: curl/8.5.0", "> Accept: */*",
             "> Authorization: Bearer [REDACTED]", ">", f"< HTTP/2 {status}",
             f"< date: {rng.choice(('Sat', 'Sun', 'Mon', 'Tue'))}, {rng.randint(1, 28):02d} May 2026 {rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d} GMT",
             "< content-type: application/json;charset=UTF-8", f"< x-request-id: {_uuid(rng)}", "<", body,
             f"* Connection #0 to host {host} left intact"]
    return "\n".join(lines)


# --- payloads: Sentry, Mercado Pago, Pix, NF-e ----------------------------------------------------------------

def sentry_issue(rng: random.Random, title: str | None = None, extra: dict[str, Any] | None = None,
                 event_id: str | None = None) -> str:
    exc = title or rng.choice(FILLER_EXC)
    issue: dict[str, Any] = {
        "id": _digits(rng, 10), "shortId": f"SHOP-{rng.choice(('DJANGO', 'CELERY'))}-{_alnum(rng, 3).upper()}",
        "title": exc, "culprit": rng.choice(APP_FRAMES)[0].replace("/app/", "").replace("/", ".")[:-3],
        "level": rng.choice(("error", "error", "warning", "fatal")), "status": rng.choice(("unresolved", "unresolved", "ignored")),
        "count": str(rng.randint(1, 900)), "userCount": rng.randint(0, 80),
        "firstSeen": _ts(rng, "T", False) + ".000000Z", "lastSeen": _ts(rng, "T", False) + ".000000Z",
        "project": {"slug": rng.choice(("loja-django", "loja-celery", "shipping-go")), "platform": "python"},
        "metadata": {"type": exc.split(":")[0].rsplit(".", 1)[-1], "value": exc.split(": ", 1)[-1][:80],
                     "filename": rng.choice(APP_FRAMES)[0].replace("/app/", "")},
        "tags": [{"key": "environment", "value": rng.choice(("production", "production", "staging"))},
                 {"key": "release", "value": f"shop@2026.0{rng.randint(4, 5)}.{rng.randint(1, 9)}"},
                 {"key": "transaction", "value": rng.choice(URLS + APP_TASKS)},
                 {"key": "server_name", "value": f"{_hex(rng, 12)}"}],
        "latestEvent": {"eventID": event_id or _hex(rng, 32), "dateCreated": _ts(rng, "T", False) + "Z",
                        "contexts": {"runtime": {"name": "CPython", "version": "3.12.3"},
                                     "trace": {"trace_id": _hex(rng, 32), "op": rng.choice(("http.server", "queue.task.celery"))}},
                        "breadcrumbs": [{"category": "query", "message": rng.choice(PLAN_NODES), "level": "info"}
                                        for _ in range(rng.randint(2, 6))]},
    }
    if extra:
        issue.update(extra)
    return json.dumps(issue, indent=2, ensure_ascii=False)


def mp_webhook(rng: random.Random, payment_id: str | None = None, status: str | None = None,
               detail: str | None = None) -> str:
    pid = payment_id or "1" + _digits(rng, 10)
    notif = {"action": "payment.updated", "api_version": "v1", "data": {"id": pid},
             "date_created": _ts(rng, "T", False) + "Z", "id": int(_digits(rng, 11)), "live_mode": True,
             "type": "payment", "user_id": "1" + _digits(rng, 8)}
    payment = {"id": int(pid), "status": status or rng.choice(("approved", "pending", "rejected", "in_process")),
               "status_detail": detail or rng.choice(("accredited", "pending_waiting_transfer", "cc_rejected_other_reason")),
               "payment_method_id": rng.choice(("pix", "master", "visa", "elo")), "payment_type_id": "bank_transfer",
               "transaction_amount": float(_money(rng)), "currency_id": "BRL",
               "external_reference": f"PED-{rng.randint(20000, 69999)}", "date_approved": _ts(rng, "T", False) + ".000-03:00",
               "payer": {"email": "[REDACTED]", "identification": {"type": "CPF", "number": "***.***.***-**"}},
               "point_of_interaction": {"type": "PIX", "transaction_data": {"qr_code": "00020126580014br.gov.bcb.pix0136"
                                                                            + _uuid(rng) + "5204000053039865802BR",
                                                                            "ticket_url": "https://www.mercadopago.com.br/payments/"
                                                                            + pid + "/ticket"}}}
    return ("POST /webhooks/mercadopago/?data.id=" + pid + "&type=payment\nx-signature: ts=" + _digits(rng, 10)
            + ",v1=" + _hex(rng, 64) + "\nx-request-id: " + _uuid(rng) + "\n\n" + json.dumps(notif, indent=2)
            + "\n\n# GET /v1/payments/" + pid + "\n" + json.dumps(payment, indent=2, ensure_ascii=False))


def pix_webhook(rng: random.Random, e2e: str | None = None) -> str:
    body = {"pix": [{"endToEndId": f"E{_digits(rng, 8)}2026050{rng.randint(1, 9)}{rng.randint(10, 23)}{rng.randint(10, 59)}"
                     f"{_alnum(rng, 11)}", "txid": _alnum(rng, 26), "valor": _money(rng), "horario": _ts(rng, "T", False)
                     + ".000Z", "infoPagador": "pedido loja graosul"} for _ in range(rng.randint(1, 3))]}
    if e2e:
        body["pix"][-1]["endToEndId"] = e2e
    return json.dumps(body, indent=2)


def nfe_rejection(rng: random.Random) -> str:
    code, msg = rng.choice((("539", "Duplicidade de NF-e, com diferença na Chave de Acesso"),
                            ("204", "Duplicidade de NF-e"), ("225", "Falha no Schema XML da NFe"),
                            ("778", "Informado NCM inexistente"), ("301", "Uso Denegado: Irregularidade fiscal do emitente"),
                            ("611", "cEAN inválido")))
    return json.dumps({"status": "erro_autorizacao", "status_sefaz": code, "mensagem_sefaz": f"Rejeição {code}: {msg}",
                       "ref": f"PED-{rng.randint(20000, 69999)}", "serie": "1", "numero": str(rng.randint(1000, 9999))},
                      ensure_ascii=False)


# --- files ----------------------------------------------------------------------------------------------------

def settings_py(rng: random.Random) -> str:
    return f'''"""Django settings for the shop (config/settings/base.py)."""
from pathlib import Path

import environ
import sentry_sdk
from sentry_sdk.integrations.celery import CeleryIntegration
from sentry_sdk.integrations.django import DjangoIntegration

env = environ.Env(DEBUG=(bool, False))
BASE_DIR = Path(__file__).resolve().parent.parent.parent
environ.Env.read_env(BASE_DIR / ".env")

SECRET_KEY = env("DJANGO_SECRET_KEY")
DEBUG = env("DEBUG")
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["lojagraosul.com.br", "www.lojagraosul.com.br"])
CSRF_TRUSTED_ORIGINS = ["https://lojagraosul.com.br", "https://admin.lojagraosul.com.br"]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "corsheaders",
    "django_celery_beat",
    "shop.catalog",
    "shop.orders",
    "shop.payments",
    "shop.checkout",
    "shop.shipping",
    "shop.fiscal",
    "shop.accounts",
]

DATABASES = {{"default": env.db("DATABASE_URL", default="postgres://loja:loja@db:5432/loja")}}
DATABASES["default"]["CONN_MAX_AGE"] = {rng.choice((0, 60, 300))}
DATABASES["default"]["OPTIONS"] = {{"connect_timeout": 5, "options": "-c statement_timeout={rng.choice((15000, 30000, 60000))}"}}

CACHES = {{
    "default": {{
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": env("REDIS_URL", default="redis://redis:6379/1"),
        "TIMEOUT": {rng.choice((300, 600, 900))},
    }}
}}

CELERY_BROKER_URL = env("CELERY_BROKER_URL", default="redis://redis:6379/0")
CELERY_RESULT_BACKEND = None
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_ROUTES = {{
    "orders.tasks.emit_nfe": {{"queue": "nfe"}},
    "fiscal.tasks.*": {{"queue": "nfe"}},
}}
CELERY_TASK_TIME_LIMIT = {rng.choice((120, 300, 600))}
CELERY_BROKER_TRANSPORT_OPTIONS = {{"visibility_timeout": {rng.choice((3600, 7200, 43200))}}}

LANGUAGE_CODE = "pt-br"
TIME_ZONE = "America/Sao_Paulo"
USE_TZ = True
USE_L10N = True

MERCADOPAGO_ACCESS_TOKEN = env("MERCADOPAGO_ACCESS_TOKEN")
MERCADOPAGO_WEBHOOK_SECRET = env("MERCADOPAGO_WEBHOOK_SECRET")
PIX_EXPIRATION_MINUTES = {rng.choice((15, 30, 60))}
NFE_PROVIDER_URL = env("NFE_PROVIDER_URL", default="https://homologacao.focusnfe.com.br")
NFE_PROVIDER_TOKEN = env("NFE_PROVIDER_TOKEN")
SHIPPING_SERVICE_URL = env("SHIPPING_SERVICE_URL", default="http://shipping:8081")
SHIPPING_TIMEOUT_SECONDS = {rng.choice((4, 6, 8, 10))}

LOGGING = {{
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {{"plain": {{"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}}}},
    "handlers": {{"console": {{"class": "logging.StreamHandler", "formatter": "plain"}}}},
    "loggers": {{
        "shop": {{"handlers": ["console"], "level": "INFO"}},
        "django.db.backends": {{"handlers": ["console"], "level": "WARNING"}},
    }},
}}

sentry_sdk.init(
    dsn=env("SENTRY_DSN", default=""),
    integrations=[DjangoIntegration(), CeleryIntegration()],
    traces_sample_rate={rng.choice(("0.05", "0.1", "0.2"))},
    send_default_pii=False,
    environment=env("SENTRY_ENVIRONMENT", default="production"),
)
'''


def env_file(rng: random.Random) -> str:
    keys = ("DJANGO_SECRET_KEY", "DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL", "MERCADOPAGO_ACCESS_TOKEN",
            "MERCADOPAGO_PUBLIC_KEY", "MERCADOPAGO_WEBHOOK_SECRET", "PIX_KEY", "NFE_PROVIDER_URL", "NFE_PROVIDER_TOKEN",
            "MELHORENVIO_TOKEN", "CORREIOS_USER", "CORREIOS_CARTAO_POSTAGEM", "SENTRY_DSN", "AWS_ACCESS_KEY_ID",
            "AWS_SECRET_ACCESS_KEY", "EMAIL_HOST_PASSWORD")
    plain = {"DEBUG": "False", "ALLOWED_HOSTS": "lojagraosul.com.br,www.lojagraosul.com.br",
             "SENTRY_ENVIRONMENT": rng.choice(("production", "staging")), "NFE_AMBIENTE": rng.choice(("1", "2")),
             "SHIPPING_SERVICE_URL": "http://shipping:8081"}
    lines = ["# .env (valores sensíveis omitidos pelo read_file)"]
    lines += [f"{k}={v}" for k, v in plain.items()]
    lines += [f"{k}=********" for k in keys]
    return "\n".join(lines)


def compose_yml(rng: random.Random) -> str:
    return f'''services:
  web:
    image: ghcr.io/graosul/shop:${{SHOP_TAG:-2026.05.{rng.randint(1, 9)}}}
    command: gunicorn config.wsgi:application -b 0.0.0.0:8000 -w {rng.choice((3, 4, 5))} --timeout {rng.choice((30, 60, 90))}
    env_file: .env
    depends_on:
      db: {{condition: service_healthy}}
      redis: {{condition: service_started}}
    healthcheck:
      test: ["CMD", "curl", "-fsS", "http://localhost:8000/healthz/"]
      interval: 30s
    restart: unless-stopped
  celery:
    image: ghcr.io/graosul/shop:${{SHOP_TAG:-2026.05.{rng.randint(1, 9)}}}
    command: celery -A config worker -l info -Q celery --concurrency={rng.choice((2, 4, 6))} --max-tasks-per-child=200
    env_file: .env
    depends_on: [redis, db]
    restart: unless-stopped
  celery-nfe:
    image: ghcr.io/graosul/shop:${{SHOP_TAG:-2026.05.{rng.randint(1, 9)}}}
    command: celery -A config worker -l info -Q nfe --concurrency=1
    env_file: .env
    mem_limit: {rng.choice(("512m", "1g", "2g"))}
    restart: unless-stopped
  beat:
    image: ghcr.io/graosul/shop:${{SHOP_TAG:-2026.05.{rng.randint(1, 9)}}}
    command: celery -A config beat -l info --scheduler django_celery_beat.schedulers:DatabaseScheduler
    env_file: .env
  shipping:
    image: ghcr.io/graosul/shipping:${{SHIPPING_TAG:-2026.05.{rng.randint(1, 9)}}}
    environment:
      - MELHORENVIO_TOKEN
      - CORREIOS_USER
      - QUOTE_TIMEOUT_MS={rng.choice((2500, 3000, 4000))}
    restart: unless-stopped
  admin:
    image: ghcr.io/graosul/admin:${{ADMIN_TAG:-2026.05.{rng.randint(1, 9)}}}
  nginx:
    image: nginx:1.27-alpine
    ports: ["80:80", "443:443"]
    volumes:
      - ./deploy/nginx/loja.conf:/etc/nginx/conf.d/default.conf:ro
      - /etc/letsencrypt:/etc/letsencrypt:ro
    depends_on: [web, admin]
  db:
    image: postgres:16.3
    volumes: ["pgdata:/var/lib/postgresql/data"]
    environment:
      POSTGRES_DB: loja
      POSTGRES_USER: loja
      POSTGRES_PASSWORD: ${{POSTGRES_PASSWORD}}
    command: postgres -c shared_buffers={rng.choice(("512MB", "1GB"))} -c log_min_duration_statement={rng.choice((500, 1000))}
    healthcheck:
      test: ["CMD-SHELL", "pg_isready -U loja"]
  redis:
    image: redis:7.2-alpine
    command: redis-server --maxmemory {rng.choice(("256mb", "512mb"))} --maxmemory-policy allkeys-lru
volumes:
  pgdata:
'''


def models_py(rng: random.Random) -> str:
    return f'''from decimal import Decimal

from django.db import models, transaction
from django.utils import timezone


class Order(models.Model):
    class Status(models.TextChoices):
        PENDING_PAYMENT = "pending_payment", "Aguardando pagamento"
        PAID = "paid", "Pago"
        INVOICED = "invoiced", "NF-e emitida"
        SHIPPED = "shipped", "Enviado"
        DELIVERED = "delivered", "Entregue"
        CANCELED = "canceled", "Cancelado"
        REFUNDED = "refunded", "Reembolsado"

    customer = models.ForeignKey("accounts.Customer", on_delete=models.PROTECT, related_name="orders")
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.PENDING_PAYMENT, db_index=True)
    subtotal = models.DecimalField(max_digits=10, decimal_places=2)
    shipping_cost = models.DecimalField(max_digits=8, decimal_places=2, default=Decimal("0.00"))
    shipping_service = models.CharField(max_length=40, blank=True)
    cep = models.CharField(max_length=9)
    melhorenvio_id = models.CharField(max_length=64, blank=True, null=True)
    tracking_code = models.CharField(max_length=20, blank=True)
    coupon = models.ForeignKey("checkout.Coupon", null=True, blank=True, on_delete=models.SET_NULL)
    paid_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["status", "created_at"], name="orders_status_created_{_hex(rng, 4)}")]

    @property
    def total(self) -> Decimal:
        return self.subtotal + self.shipping_cost

    def mark_paid(self, when=None):
        self.status = self.Status.PAID
        self.paid_at = when or timezone.now()
        self.save(update_fields=["status", "paid_at", "updated_at"])
        transaction.on_commit(lambda: emit_nfe.delay(self.pk))


class OrderItem(models.Model):
    order = models.ForeignKey(Order, on_delete=models.CASCADE, related_name="items")
    product = models.ForeignKey("catalog.Product", on_delete=models.PROTECT)
    sku = models.CharField(max_length=32)
    quantity = models.PositiveIntegerField(default=1)
    unit_price = models.DecimalField(max_digits=10, decimal_places=2)
    ncm = models.CharField(max_length=8, blank=True)


class Payment(models.Model):
    order = models.ForeignKey(Order, on_delete=models.PROTECT, related_name="payments")
    method = models.CharField(max_length=20)  # pix | credit_card
    mp_payment_id = models.CharField(max_length=32, unique=True, null=True)
    status = models.CharField(max_length=20)
    status_detail = models.CharField(max_length=60, blank=True)
    amount = models.DecimalField(max_digits=10, decimal_places=2)
    raw = models.JSONField(default=dict)
    updated_at = models.DateTimeField(auto_now=True)


class PixCharge(models.Model):
    order = models.OneToOneField(Order, on_delete=models.CASCADE)
    txid = models.CharField(max_length=35, unique=True)
    qr_code = models.TextField()
    expires_at = models.DateTimeField()
    paid = models.BooleanField(default=False)
'''


def go_source(rng: random.Random) -> str:
    return f'''package quote

import (
	"context"
	"errors"
	"sort"
	"time"

	"golang.org/x/sync/errgroup"

	"{GO_MOD}/internal/cache"
	"{GO_MOD}/internal/correios"
	"{GO_MOD}/internal/melhorenvio"
)

// Request is what the Django checkout sends: destination CEP and the cart's packages.
type Request struct {{
	CEPDestino string    `json:"cep_destino"`
	Pacotes    []Pacote  `json:"pacotes"`
	Valor      float64   `json:"valor_declarado"`
}}

type Pacote struct {{
	PesoKg      float64 `json:"peso_kg"`
	AlturaCm    int     `json:"altura_cm"`
	LarguraCm   int     `json:"largura_cm"`
	ComprimentoCm int   `json:"comprimento_cm"`
}}

type Option struct {{
	Provider string  `json:"provider"`
	Servico  string  `json:"servico"`
	Valor    float64 `json:"valor"`
	Prazo    int     `json:"prazo_dias"`
}}

var ErrNoQuote = errors.New("quote: nenhuma transportadora respondeu")

type Service struct {{
	Correios    *correios.Client
	MelhorEnvio *melhorenvio.Client
	Cache       cache.Store
	Timeout     time.Duration // default {rng.choice((2500, 3000, 4000))}ms
}}

func (s *Service) Quote(ctx context.Context, req Request) ([]Option, error) {{
	key := cache.Key(req.CEPDestino, req.Pacotes)
	if opts, ok := s.Cache.Get(ctx, key); ok {{
		return opts, nil
	}}
	ctx, cancel := context.WithTimeout(ctx, s.Timeout)
	defer cancel()
	var (
		g    errgroup.Group
		a, b []Option
	)
	g.Go(func() error {{ var err error; a, err = s.Correios.Quote(ctx, req.CEPDestino, cubagem(req.Pacotes)); return err }})
	g.Go(func() error {{ var err error; b, err = s.MelhorEnvio.Quote(ctx, req.CEPDestino, req.Pacotes); return err }})
	_ = g.Wait() // one provider failing is fine; we return what came back
	opts := append(a, b...)
	if len(opts) == 0 {{
		return nil, ErrNoQuote
	}}
	sort.Slice(opts, func(i, j int) bool {{ return opts[i].Valor < opts[j].Valor }})
	s.Cache.Set(ctx, key, opts, {rng.choice((10, 15, 30))}*time.Minute)
	return opts, nil
}}

// cubagem applies the Correios cubic weight rule: (A x L x C) / 6000, whichever is larger.
func cubagem(ps []Pacote) float64 {{
	total := 0.0
	for _, p := range ps {{
		cub := float64(p.AlturaCm*p.LarguraCm*p.ComprimentoCm) / 6000
		if cub > p.PesoKg {{
			total += cub
		}} else {{
			total += p.PesoKg
		}}
	}}
	return total
}}
'''


def orders_csv(rng: random.Random, size: int, extra: str | None = None) -> str:
    lines = ["pedido,data,cliente_uf,cidade,sku,qtd,valor_itens,frete,servico_frete,metodo_pagamento,status,nfe_numero"]

    def row() -> str:
        city = rng.choice(CITIES)
        sku = rng.choice(PRODUCTS)
        q = rng.randint(1, 3)
        return (f"PED-{rng.randint(20000, 69999)},{_ts(rng, ms=False)[:10]},{city[1]},{city[0]},{sku[0]},{q},"
                f"{sku[2] * q:.2f},{_money(rng, 0, 70)},{rng.choice(('PAC', 'SEDEX', 'Jadlog .Package', 'Loggi'))},"
                f"{rng.choice(('pix', 'pix', 'credit_card'))},{rng.choice(STATUSES)},{rng.randint(1000, 9999)}")
    lines = _fill(lines, size, row)
    if extra:
        lines.insert(rng.randint(1, len(lines)), extra)
    return "\n".join(lines)


# --- what the user pastes: other people's texts, with their own rules -----------------------------------------

def doc_accountant(rng: random.Random) -> str:
    who = rng.choice(("Rosângela Fagundes", "Cláudia Bertoldi", "Marli Zanella"))
    return f"""De: {who} <{who.split()[0].lower().replace("â", "a").replace("á", "a")}@contabilidadeportoalegre.com.br>
Assunto: NF-e da loja - regras pra não dar problema com a SEFAZ
Data: {rng.randint(2, 28)} de {rng.choice(("abril", "maio"))} de 2026

Oi pessoal, tudo bem?

Seguem as regras que eu preciso que vocês sigam daqui pra frente, porque o último mês deu retrabalho:

1. SEMPRE emitam a NF-e antes de despachar a mercadoria. Sem nota, o pacote não sai do depósito.
2. NUNCA cancelem nota depois de 24 horas da autorização. Passou disso, é carta de correção (se for dado \
cadastral) ou nota de devolução.
3. Venda pra fora do RS é CFOP 6102, dentro do estado 5102. Não misturem, a SEFAZ rejeita ou pior, autoriza e \
depois cai na malha.
4. Sempre confiram o NCM dos moedores e chaleiras (8509.40.50 e 8516.71.00); café torrado é 0901.21.00.
5. Rejeição 539 (duplicidade): não reenviem no automático. Me mandem a chave e eu vejo o que aconteceu.
6. O DIFAL das vendas pra consumidor final fora do estado é recolhido na emissão, não deixem acumular pro fim do mês.
7. Guardem o XML autorizado por 5 anos, no mínimo. Não apaguem nada do bucket.

Qualquer dúvida me liguem antes de mexer no sistema, por favor.

Abraço,
{who}
Contadora - CRC/RS {rng.randint(40000, 99999)}/O-{rng.randint(1, 9)}"""


def doc_complaint(rng: random.Random) -> str:
    who = _name(rng)
    prod = rng.choice(PRODUCTS)
    return f"""From: {who} <{who.split()[0].lower()}.{_alnum(rng, 4)}@gmail.com>
Subject: PEDIDO ATRASADO E COBRADO DUAS VEZES!!!

Boa tarde.

Comprei um(a) {prod[1]} no dia {rng.randint(1, 28)}/04 e até agora nada. O rastreio diz "objeto aguardando \
postagem" há {rng.randint(6, 15)} dias. Pior: o Pix foi cobrado DUAS vezes no meu extrato, R$ {prod[2]:.2f} cada.

Exijo o estorno imediato da cobrança duplicada e o envio por SEDEX sem custo adicional. Resolvam isso até sexta-\
feira ou vou abrir reclamação no Procon e no Reclame Aqui. Não me mandem resposta automática, quero falar com \
um responsável.

Também quero que apaguem meus dados do cadastro depois que isso for resolvido.

{who}
CPF ***.***.***-{rng.randint(10, 99)}"""


def doc_mp_checklist(rng: random.Random) -> str:
    return f"""Mercado Pago - Checklist de qualidade da integração (Checkout Pro / Pagamentos)
Pontuação atual: {rng.randint(52, 78)}/100 - mínimo recomendado: 73

[ ] Envie o campo items.category_id em todas as preferências.
[ ] Envie payer.first_name, payer.last_name e payer.identification para reduzir rejeições por risco.
[x] Use external_reference para conciliar o pagamento com o seu pedido.
[ ] Valide a assinatura x-signature de todas as notificações de webhook antes de processá-las.
[ ] Responda às notificações com HTTP 200 ou 201 em até 22 segundos; caso contrário, elas serão reenviadas.
[ ] Não consulte o pagamento antes de receber a notificação; use a notificação como gatilho.
[x] Implemente reembolsos e cancelamentos pela API.
[ ] Exiba as mensagens de status_detail ao comprador quando o pagamento for rejeitado.
[ ] Configure a URL de notificações no painel e também em notification_url da preferência.
[ ] Mantenha o SDK atualizado (mercadopago>=2.2.3).

Observação: integrações abaixo da pontuação mínima podem ter taxa de aprovação menor. Complete os itens \
pendentes em até {rng.choice((15, 30))} dias."""


def doc_designer(rng: random.Random) -> str:
    who = rng.choice(("Luana", "Thaís", "Bruno K.", "Mari Becker"))
    return f"""# Handover - redesign do admin e da vitrine ({who})

Oi! Segue o que ficou pronto e o que falta. Eu saio do projeto na sexta.

## Tokens
- Cor primária #6B3E26 (café), secundária #E9DCC9, erro #B3261E. Não mexam nas cores do tema sem falar com a \
marca, por favor.
- Fonte: Inter para UI, Fraunces só nos títulos da vitrine. Não usem Roboto em lugar nenhum.
- Espaçamento em múltiplos de 4px.

## Componentes
- OrderStatusBadge: um estado por status do pedido; "invoiced" aparece como "NF-e emitida".
- Os ícones estão em /admin/src/assets/icons. Sempre exportem ícones novos em SVG otimizado (svgo), nunca PNG.
- Tabela de pedidos: paginação de {rng.choice((25, 50))} linhas, filtro por status fixo no topo.

## Pendências
- Dark mode do admin ficou pela metade. Sugiro migrar tudo pra Tailwind antes de terminar.
- Fotos dos produtos: usem sempre 1200x1200 webp, fundo #F6F1EA.
- Figma: https://www.figma.com/file/{_alnum(rng, 22)}/Grao-Sul-Admin"""


def doc_correios(rng: random.Random) -> str:
    return f"""CONTRATO DE PRESTAÇÃO DE SERVIÇOS E VENDA DE PRODUTOS - Nº {rng.randint(100, 999)}/2026 - SE/RS

CLÁUSULA QUINTA - DAS OBRIGAÇÕES DA CONTRATANTE
5.1 A CONTRATANTE deverá pré-postar todos os objetos via API ou Pré-Postagem Web antes da entrega na agência.
5.2 A CONTRATANTE deverá informar peso e dimensões reais; divergências acima de {rng.choice((5, 10))}% serão \
cobradas com base na aferição dos CORREIOS.
5.3 É vedada a postagem de objetos com dimensões superiores a 100 cm de comprimento ou soma das dimensões \
superior a 200 cm.
5.4 A CONTRATANTE deverá manter o cartão de postagem ativo e não compartilhá-lo com terceiros.

CLÁUSULA SÉTIMA - DOS PREÇOS E DO FATURAMENTO
7.1 Os serviços serão faturados mensalmente, com vencimento no dia {rng.choice((10, 15, 20))} do mês subsequente.
7.2 O atraso no pagamento sujeitará a CONTRATANTE à suspensão do contrato após 30 (trinta) dias.

CLÁUSULA NONA - DA INDENIZAÇÃO
9.1 A indenização por extravio limita-se ao valor declarado, quando contratado o serviço adicional.
9.2 Reclamações deverão ser registradas em até 90 (noventa) dias corridos contados da postagem."""


def doc_whatsapp(rng: random.Random) -> str:
    guy = rng.choice(("Cleiton Depósito", "Juninho Expedição", "Seu Adão (depósito)"))
    d = f"{rng.randint(1, 28):02d}/05/2026"
    h = rng.randint(8, 11)
    return f"""[{d}, {h:02d}:{rng.randint(0, 59):02d}] {guy}: bom dia chefe
[{d}, {h:02d}:{rng.randint(0, 59):02d}] {guy}: as etiquetas do melhor envio nao tao imprimindo de novo
[{d}, {h:02d}:{rng.randint(0, 59):02d}] Você: qual erro aparece?
[{d}, {h:02d}:{rng.randint(0, 59):02d}] {guy}: diz saldo insuficiente mas eu vi que tinha
[{d}, {h + 1:02d}:{rng.randint(0, 59):02d}] {guy}: <mídia oculta>
[{d}, {h + 1:02d}:{rng.randint(0, 59):02d}] {guy}: e tem {rng.randint(8, 30)} pedidos pagos sem nota, não despacho sem nota né
[{d}, {h + 1:02d}:{rng.randint(0, 59):02d}] {guy}: manda as etiquetas até as 15h pfv senão a coleta não leva hoje
[{d}, {h + 1:02d}:{rng.randint(0, 59):02d}] {guy}: e fala pro sistema parar de mandar moedor no envelope, tem que ir em caixa
[{d}, {h + 2:02d}:{rng.randint(0, 59):02d}] Você: blz, vou ver aqui
[{d}, {h + 2:02d}:{rng.randint(0, 59):02d}] {guy}: 👍"""


def doc_lgpd(rng: random.Random) -> str:
    who = rng.choice(("Dra. Helena Kunz", "Rafael Lima (DPO as a service)", "Privacidade Sul Consultoria"))
    return f"""Relatório de adequação à LGPD - loja virtual Grão Sul
Responsável: {who}

Recomendações (em ordem de prioridade):
1. Mascarem CPF e telefone em todos os logs da aplicação e do Sentry (send_default_pii=False não basta).
2. Definam prazo de retenção: logs de acesso com IP devem ser apagados após {rng.choice((90, 180))} dias.
3. Implementem cofre próprio de dados de cartão (tokenização PCI DSS nível 1) e criptografia em repouso do PAN.
4. Publiquem a política de privacidade atualizada e o canal do encarregado (DPO) no rodapé do site.
5. Façam inventário dos operadores (Mercado Pago, Melhor Envio, provedor de NF-e, Hetzner, Sentry) com contrato \
de tratamento de dados assinado.
6. Atendam pedidos de exclusão em até 15 dias, exceto dados com obrigação legal de guarda (NF-e: 5 anos).
7. Ativem autenticação em dois fatores para todos os acessos ao admin e ao servidor.

Prazo sugerido para os itens 1 a 3: {rng.choice((30, 45, 60))} dias."""


DOCS = {"accountant": doc_accountant, "complaint": doc_complaint, "mp_checklist": doc_mp_checklist,
        "designer": doc_designer, "correios": doc_correios, "whatsapp": doc_whatsapp, "lgpd": doc_lgpd}
DOC_INTRO = {
    "accountant": ("a contadora mandou isso, dá uma lida:", "email da {c} sobre NF-e, colando aqui", "olha o que a contabilidade mandou"),
    "complaint": ("recebi essa reclamação hj, pô:", "cliente bravo, segue o email:", "got this complaint this morning:"),
    "mp_checklist": ("o MP mandou esse checklist de qualidade da integração:", "Mercado Pago checklist, fyi:",
                     "olha o checklist do mercado pago"),
    "designer": ("handover da designer, colando inteiro:", "the designer's handover notes:", "notas que a freela deixou:"),
    "correios": ("trecho do contrato dos Correios:", "cláusulas do contrato, pra referência:", "from the Correios contract:"),
    "whatsapp": ("conversa com o depósito agora de manhã:", "print do zap com o pessoal da expedição (copiei o texto):",
                 "whatsapp thread with the warehouse guy:"),
    "lgpd": ("relatório da consultoria de LGPD:", "o consultor de LGPD mandou as recomendações:", "LGPD report, pasting:"),
}
DOC_REACT = {
    "accountant": ("o item 6 do DIFAL é com ela, não mexe nisso.", "a parte do NCM a gente já tem no cadastro, ignora.",
                   "o 7 já tá coberto pelo lifecycle do bucket."),
    "complaint": ("não promete nada pra ela ainda, primeiro vê se cobrou duas vezes mesmo.",
                  "o estorno eu faço pelo painel, tu só confere os dados.", "ignora a parte do Procon, deixa comigo."),
    "mp_checklist": ("o item do SDK ignora por enquanto, a gente usa a API direto.",
                     "category_id pode ficar pra depois.", "the status_detail thing is low priority."),
    "designer": ("o Tailwind ela sugeriu mas não vamos migrar agora, esquece.", "dark mode fica pra depois.",
                 "ignore the font stuff, it's already done."),
    "correios": ("é só pra contexto.", "o 5.2 é o que tá pegando nas cobranças.", "just context, nothing to change."),
    "whatsapp": ("o saldo do Melhor Envio eu vejo, tu vê as notas.", "o do envelope é regra de embalagem, não é sistema.",
                 "a coleta é às 16h mas ele gosta de margem."),
    "lgpd": ("o item 3 da consultoria ignora, isso é pra quem guarda cartão, a gente não guarda nada, é tudo no MP.",
             "o 4 e o 5 são comigo.", "item 7 já tá feito."),
}


# --- planted facts: what the user says ------------------------------------------------------------------------

DAYS_EN = ("Fridays", "Saturdays", "Friday afternoons", "Sundays", "Mondays before noon")


def _instructions(r: random.Random) -> list[tuple[str, str, str]]:
    """(style, value, query) of the user's own standing rules."""
    h = r.randint(21, 23)
    return [
        ("indirect", f"Black Friday o site não pode cair de jeito nenhum, é {r.randint(31, 48)}% do ano",
         "How much can the site be down around Black Friday, and why does it matter so much?"),
        ("casual", f"I'd rather you didn't touch the Pix code on {r.choice(DAYS_EN)}",
         "When should the agent stay away from the Pix payment code?"),
        ("conditional", "se for mexer em migration da tabela de pedidos, faz backup antes e me avisa",
         "What must happen before a migration on the orders table is changed?"),
        ("portuguese", "nunca roda migrate direto em produção", "May Django migrations be applied straight on production?"),
        ("portuguese", "sempre testa no staging primeiro", "Where does every change have to be tried before going live?"),
        ("conditional", f"if a deploy needs downtime, do it after {h}h and ping me on WhatsApp first",
         "What are the conditions for a deploy that takes the site down?"),
        ("indirect", f"a leva de NF-e sai entre {h - 20:02d}h e {h - 19:02d}h, worker reiniciando nessa hora me dá dor de cabeça",
         "Is there a time window when the Celery workers should not be restarted?"),
        ("portuguese", "preço nunca em float, sempre Decimal com duas casas", "How must prices be represented in code?"),
        ("conditional", "se o Mercado Pago devolver 5xx, não reenvia cobrança, só marca o pedido pra revisão",
         "What should the code do when Mercado Pago answers with a server error?"),
        ("casual", "no new Go dependencies without asking me first, the shipping binary is small on purpose",
         "Can the agent add libraries to the Go shipping service freely?"),
        ("portuguese", f"timeout dos Correios no máximo {r.choice((3, 4, 5))}s, senão o checkout trava",
         "What is the longest the checkout may wait for the Correios API?"),
        ("casual", "I'd prefer small PRs, one concern each, even if that means three of them",
         "How should changes be split into pull requests?"),
        ("indirect", "a Jéssica usa o admin das 8h ao meio-dia, se o admin cair nessa janela ela me liga na hora",
         "Who relies on the React admin in the morning, and what does that imply for admin deploys?"),
        ("portuguese", "nada de :latest nas imagens de produção, sempre tag de versão",
         "Which image tags are acceptable in the production compose file?"),
        ("conditional", "if you ever need the prod DB, use the read replica unless I say otherwise",
         "Which database should queries against production data go to by default?"),
        ("casual", f"keep Sentry traces_sample_rate at {r.choice(('0.05', '0.02', '0.1'))} in prod, our quota is tight",
         "What should Sentry's tracing sample rate be in production?"),
    ]


ADOPTED = {  # the user's own words taking up a point of a pasted document
    "accountant": ("cancelamento de NF-e só dentro das 24h, passou disso a gente faz carta de correção",
                   "How long after authorization may an NF-e still be cancelled, and what happens afterwards?"),
    "lgpd": ("CPF tem que sair mascarado em tudo que é log, inclusive no Sentry",
             "How must customers' CPF numbers appear in logs and error reports?"),
    "mp_checklist": ("valida o x-signature em todo webhook do MP antes de processar qualquer coisa",
                     "What must be checked on every Mercado Pago notification before it is processed?"),
    "whatsapp": ("pedido pago sem NF-e não pode ir pra expedição, trava no sistema",
                 "What should the system do with a paid order that has no invoice yet when it comes to dispatch?"),
}
INSTR_OPEN = ("ah, uma coisa:", "antes que eu esqueça —", "regra da casa:", "", "importante:", "btw,", "só pra constar,",
              "e outra:", "one more thing:", "pra ficar claro:", "lembra disso:", "fica a dica:")
INSTR_TAIL = ("", "valeu", "tá?", "beleza?", "ok?", "combinado?", "pls", "thx", "né", "")


def _corrections(r: random.Random) -> list[dict[str, Any]]:
    """Each: stale, value, say (the earlier statement), fix (the correction), query."""
    cep = f"9{r.randint(0, 1)}{r.randint(0, 9)}{r.randint(0, 9)}0"
    a, b = r.sample("0123456789", 2)
    c = r.choice("0123456789")
    shop = r.choice(("graosul", "gsul", "graosulcafes"))
    ip = f"{r.choice(('49.12', '116.203', '168.119', '95.217'))}.{r.randint(10, 250)}"
    o1, o2 = r.randint(10, 99), r.randint(10, 99)
    code = "99" + "".join(r.choice("0123456789") for _ in range(8))
    code2 = code[:6] + code[7] + code[6] + code[8:] if code[6] != code[7] else code[:8] + str((int(code[8]) + 1) % 10) + code[9]
    thr = r.randint(19, 39) * 10 + 9
    thr2 = int(str(thr)[0] + str(thr)[2] + str(thr)[1]) if str(thr)[1] != str(thr)[2] else thr + 20
    sku = f"{r.choice(('MOE', 'CHL', 'KET', 'V60'))}-{r.choice(('HARIO', 'FELLOW', 'TIMEMORE', 'KALITA'))}-{r.randint(10, 99)}"
    h1, m1 = r.randint(1, 5), r.choice((10, 20, 40, 50))
    user = r.choice(("marina", "leticia", "carolina", "fernanda"))
    cnpj = f"{r.randint(10, 99)}.{r.randint(100, 999)}.{r.randint(100, 999)}/0001-{r.randint(10, 99)}"
    tbl = r.choice((("shipping_quotecache", "shipping_quotelog_"), ("fiscal_notaevento", "fiscal_notaenvio_"),
                    ("payments_pixrefund", "payments_pixcharge_")))
    return [
        {"stale": f"{cep}-{a}{b}{c}", "value": f"{cep}-{b}{a}{c}", "query": "What is the origin CEP for shipping quotes?",
         "say": "o CEP de origem pro Melhor Envio é {s}, o do depósito novo",
         "fix": "não, peraí, o CEP de origem é {v}, não {s}. troquei os números"},
        {"stale": f"financeiro@{shop}.com.br", "value": cnpj, "query": "Which Pix key should the charges use?",
         "say": "a chave Pix que vai no QR é a do email, {s}",
         "fix": "pô, errei: é a outra chave Pix, a do CNPJ, {v}"},
        {"stale": tbl[1].rstrip("_") + "s", "value": tbl[0], "query": "Which table holds the data the user wanted checked?",
         "say": "os dados tão na {s}, dá um select lá", "fix": "wrong table — it's {v}, not {s}"},
        {"stale": f"{shop}-uploads-fsn1-{o1}", "value": f"{shop}-backups-fsn1-{o1}",
         "query": "Which storage bucket did the user mean?", "say": "manda pro bucket {s} que tá com espaço",
         "fix": "o bucket que eu falei era o de backups, {v}, não o {s}"},
        {"stale": f"{ip}.{o2}", "value": f"{ip}.{o2 + 100}", "query": "What is the staging server's IP address?",
         "say": "o staging é o {s}, porta 22 normal", "fix": "o IP do staging tá errado, é {v} (não {s})"},
        {"stale": code, "value": code2, "query": "What is the Correios contract code?",
         "say": "o código do contrato dos Correios é {s}, põe no .env", "fix": "corrigindo: contrato dos Correios é {v}, inverti dois dígitos"},
        {"stale": f"acima de R$ {thr}", "value": f"acima de R$ {thr2}", "query": "From what cart value is shipping free?",
         "say": "frete grátis {s}, só Sul e Sudeste", "fix": "na real o frete grátis é {v}, não {s}, a gente mudou semana passada"},
        {"stale": sku + "A", "value": sku + "B", "query": "Which SKU is the product in question?",
         "say": "o SKU que tá dando problema é o {s}", "fix": "ops, o SKU é {v}, o {s} é a versão antiga"},
        {"stale": f"{h1:02d}h{m1}", "value": f"{h1:02d}h{m1 + 5}", "query": "At what time does the nightly NF-e batch run?",
         "say": "o lote de NF-e roda às {s} todo dia", "fix": "erro meu, o lote roda às {v}"},
        {"stale": f"{user}.{o1}@gmail.com", "value": f"{user}_{o1}@gmail.com", "query": "What is the complaining customer's email?",
         "say": "o email da cliente é {s}", "fix": "o email certo é {v}, com underline"},
        {"stale": f"staging.{shop}.dev", "value": f"homolog.{shop}.com.br", "query": "What is the staging hostname?",
         "say": "staging fica em {s}", "fix": "no, the staging host is {v} now, we moved off {s}"},
        {"stale": f"/webhooks/mp/v{o1 % 3 + 1}/", "value": f"/webhooks/mp/v{o1 % 3 + 4}/",
         "query": "Which URL path receives the Mercado Pago webhooks?", "say": "o webhook do MP aponta pra {s}",
         "fix": "o path do webhook é {v}, não {s}, eu que confundi"},
    ]


CORR_OPEN = ("", "ah,", "hmm", "opa,", "peraí,", "wait,", "correção:", "desculpa,", "")


def _decisions(r: random.Random) -> list[dict[str, Any]]:
    """Each: value (the choice), query, and for some a revision: ``revised`` (the later choice)."""
    m, k, h = r.randint(7, 40), r.randint(4, 9), r.randint(1, 4)
    prov = r.choice(("eNotas", "NFE.io", "Webmania"))
    return [
        {"value": "Melhor Envio como padrão no checkout, Correios só de fallback",
         "revised": "Correios direto como padrão, Melhor Envio só pra Jadlog", "query": "Which shipping provider is the default at checkout?"},
        {"value": "trocar Celery por RQ nas tasks novas", "revised": "deixa o Celery mesmo, RQ não compensa agora",
         "query": "Which task queue library do the background jobs use?"},
        {"value": f"migrar a emissão de NF-e pra {prov}", "revised": "fica na Focus NFe, sem migração este ano",
         "query": "Which provider emits the NF-e invoices?"},
        {"value": f"cache das cotações em memória no próprio Go, TTL de {m} min",
         "revised": "deixa o Redis mesmo pro cache de frete", "query": "Where are shipping quotes cached?"},
        {"value": "admin novo consumindo GraphQL com strawberry", "revised": "esquece o GraphQL, REST mesmo com DRF",
         "query": "What kind of API does the new admin consume?"},
        {"value": "trocar o Sentry pelo GlitchTip self-hosted", "revised": "continua no Sentry, plano Team",
         "query": "Which error tracker does the shop use?"},
        {"value": "particionar a tabela de pedidos por mês",
         "revised": "só um índice parcial em status pago, sem partição", "query": "How is the slow orders table going to be handled?"},
        {"value": f"emissão de NF-e com retry exponencial, no máximo {k} tentativas",
         "query": "How does NF-e emission retry after a failure?"},
        {"value": f"pg_dump diário às {h:02d}h30 pro Storage Box da Hetzner", "query": "How and when is the database backed up?"},
        {"value": f"subir a VM pra CPX{r.choice((41, 51))} antes da Black Friday", "query": "What happens to the server size before Black Friday?"},
        {"value": f"cotação em paralelo com timeout de {r.choice((1800, 2200, 2600))}ms por transportadora",
         "query": "How are the carriers queried for a quote?"},
        {"value": "checkout novo atrás de flag com django-waffle", "query": "How will the new checkout be rolled out?"},
        {"value": "fila separada só pra NF-e, worker com concurrency 1", "query": "How are NF-e tasks queued and consumed?"},
        {"value": "Pix direto pelo Mercado Pago, sem PSP separado", "query": "Which provider handles Pix charges?"},
        {"value": "admin sai do CRA pro Vite", "query": "What build tool will the React admin use?"},
    ]


DEC_SAY = ("decidido: {v}.", "bora de {v}.", "vamos com {v}, fechou?", "ok, let's go with {v}.", "pensei bem: {v}.",
           "conversei com o sócio e ficou assim: {v}.", "final answer: {v}.", "{v}. é isso.", "então fica assim: {v}. pode seguir.")
DEC_REVISE = ("sabe de uma coisa, {v}.", "mudei de ideia — {v}.", "esquece o que eu falei antes: {v}.",
              "pensando melhor, {v}.", "actually, scratch that: {v}.", "voltei atrás: {v}.")


def _plans(r: random.Random) -> list[tuple[str, str]]:
    h = r.randint(22, 23)
    return [
        ("primeiro faz o backup, depois roda a migration, e aí reinicia os workers", "In what order should the migration be rolled out?"),
        ("primeiro reproduz no staging com um pedido de teste, depois corrige o webhook e só então sobe pra produção",
         "What are the steps for fixing the webhook?"),
        ("antes de tudo congela o deploy, aí limpa a fila nfe, depois reprocessa as rejeitadas uma a uma",
         "How should the rejected invoices be dealt with?"),
        ("first bump the Go service, then point Django at the new endpoint, and only then drop the old route",
         "How should the shipping endpoint change be sequenced?"),
        ("hoje cria o índice com CONCURRENTLY, amanhã cedo a gente mede de novo, e só depois mexe no código",
         "What is the order of work for the slow query?"),
        ("roda a conciliação em dry-run, me manda o CSV, e só depois aplica os estornos", "How will the refunds be reconciled and applied?"),
        ("sobe o Redis novo do lado do antigo, troca a URL no .env, reinicia web e celery, e desliga o velho no dia seguinte",
         "What is the plan for replacing Redis?"),
        ("primeiro o teste que reproduz a cotação errada, depois o fix da cubagem, e por último o deploy do shipping",
         "What are the steps to fix the wrong shipping quote?"),
        ("step one export the orders to CSV, step two check the NF-e numbers against the provider, step three fix the gaps by hand",
         "How will the missing invoice numbers be found and fixed?"),
        ("atualiza o certificado A1 no provedor, testa uma emissão em homologação, depois vira pra produção",
         "What is the sequence for renewing the invoice certificate?"),
        (f"tira o admin do ar às {h}h, faz o deploy, roda o smoke test e me manda print", "How should the admin deploy go tonight?"),
        ("desliga o beat, espera as tasks em andamento terminarem, troca a versão do Celery e religa",
         "How should the Celery upgrade be done?"),
        ("first the Sentry alert rule, then the dashboard, and after that we talk about paging", "In what order is monitoring being set up?"),
        ("antes pausa o Pix no site, depois troca a chave no Mercado Pago, e aí reativa", "How will the Pix key be switched?"),
    ]


PLAN_SAY = ("beleza, então o plano é: {v}.", "faz assim: {v}. nessa ordem, tá?", "{v} — bora?", "ok plan: {v}.",
            "pensei o seguinte: {v}. se travar em algum passo me chama.", "vamo por partes: {v}.", "{v}. valeu!")


# --- planted facts: what the tools print, what the agent writes -----------------------------------------------

def _nfe_key(r: random.Random) -> str:
    return "4326" + f"{r.randint(4, 5):02d}" + _digits(r, 14) + "55001" + _digits(r, 9) + "1" + _digits(r, 8) + str(r.randint(0, 9))


def _identifiers(r: random.Random) -> list[dict[str, Any]]:
    """Each: value, query, say (the user's sentence) and shown(rng, budget) -> (tool, args, output)."""
    mp, e2e, key = "1" + _digits(r, 10), f"E{_digits(r, 8)}20260{r.randint(4, 5)}{r.randint(10, 28)}{r.randint(10, 23)}{_alnum(r, 11)}", _nfe_key(r)
    trk = f"{r.choice(UPPER)}{r.choice(UPPER)}{_digits(r, 9)}BR"
    short = f"SHOP-DJANGO-{_alnum(r, 4).upper()}"
    task, me = _uuid(r), _uuid(r)
    pref = f"{_digits(r, 9)}-{_uuid(r)}"
    ped = f"PED-{r.randint(100000, 999999)}"
    txid = _alnum(r, 32)
    evid = _hex(r, 32)
    release = f"shop@2026.05.{r.randint(10, 30)}-{_hex(r, 9)}"

    def psql_pay(v: str) -> Any:
        row = [str(r.randint(10000, 60000)), str(r.randint(20000, 69999)), "pix", v, "approved", "accredited",
               _money(r), _ts(r, ms=False) + "+00"]
        return lambda rng, b: ("psql", {"query": "SELECT id, order_id, method, mp_payment_id, status, status_detail, amount, "
                                        "updated_at FROM payments_payment WHERE updated_at > now() - interval '2 days' "
                                        "ORDER BY updated_at DESC LIMIT 40;"}, psql_payments(rng, b, row))
    return [
        {"value": evid, "query": "What is the id of the Sentry event being examined?", "say": "o event id no Sentry é {v}",
         "shown": lambda rng, b: ("sentry", {"action": "events.latest", "project": "loja-django"},
                                  sentry_issue(rng, event_id=evid) + "\n" + "\n".join(sentry_issue(rng) for _ in range(max(0, b // 2000))))},
        {"value": release, "query": "Which release is running in production?", "say": "o que tá no ar é o {v}",
         "shown": lambda rng, b: ("bash", {"command": "docker compose exec -T web env | sort | grep -v -E 'TOKEN|SECRET|PASSWORD|KEY'"},
                                  "\n".join(["DJANGO_SETTINGS_MODULE=config.settings.production", "HOME=/root", "LANG=C.UTF-8",
                                             f"SENTRY_RELEASE={release}", "SENTRY_ENVIRONMENT=production",
                                             "SHIPPING_SERVICE_URL=http://shipping:8081", "PYTHONUNBUFFERED=1"])
                                  + "\n" + compose_logs(rng, b, service="web"))},
        {"value": mp, "query": "What is the Mercado Pago payment id under discussion?",
         "say": "olha o pagamento {v} no MP, a cliente jura que pagou", "shown": psql_pay(mp)},
        {"value": e2e, "query": "What is the endToEndId of the Pix transfer in question?",
         "say": "o endToEndId que o banco mandou é {v}", "shown": lambda rng, b: (
             "bash", {"command": "docker compose logs --since 2h web | grep -A30 'webhooks/pix'"},
             "\n".join(compose_logs(rng, b // 2, service="web").splitlines()[:6]) + "\n" + pix_webhook(rng, e2e) + "\n" + compose_logs(rng, b // 2, service="web"))},
        {"value": key, "query": "What is the access key (chave) of the NF-e being discussed?",
         "say": "a chave da nota que deu problema é {v}", "shown": lambda rng, b: (
             "bash", {"command": "curl -sv https://api.focusnfe.com.br/v2/nfe?status=erro_autorizacao -u \"$NFE_PROVIDER_TOKEN:\""},
             curl_v(rng, "https://api.focusnfe.com.br/v2/nfe?status=erro_autorizacao", 200,
                    json.dumps([{"chave_nfe": key, "status": "erro_autorizacao", "ref": f"PED-{rng.randint(20000, 69999)}"}]
                               + [json.loads(nfe_rejection(rng)) for _ in range(max(1, b // 400))], ensure_ascii=False)))},
        {"value": trk, "query": "What is the tracking code of the stuck parcel?",
         "say": "rastreio {v} tá parado em Curitiba faz 6 dias", "shown": lambda rng, b: (
             "psql", {"query": "SELECT o.id, o.status, o.tracking_code, o.updated_at FROM orders_order o WHERE o.status = 'shipped' "
                               "AND o.updated_at < now() - interval '5 days';"},
             table(["id", "status", "tracking_code", "updated_at"],
                   [[str(rng.randint(20000, 69999)), "shipped", f"{rng.choice(UPPER)}{rng.choice(UPPER)}{_digits(rng, 9)}BR",
                     _ts(rng, ms=False) + "+00"] for _ in range(max(3, b // 70))]
                   + [[str(rng.randint(20000, 69999)), "shipped", trk, _ts(rng, ms=False) + "+00"]]))},
        {"value": short, "query": "Which Sentry issue is being looked at?",
         "say": "dá uma olhada no {v} do Sentry, apareceu ontem", "shown": lambda rng, b: (
             "sentry", {"action": "issues.list", "project": "loja-django", "query": "is:unresolved firstSeen:-24h"},
             sentry_issue(rng, extra={"shortId": short}) + "\n" + "\n".join(sentry_issue(rng) for _ in range(max(0, b // 1800))))},
        {"value": task, "query": "What is the id of the Celery task that failed?",
         "say": "a task {v} ficou presa, consegue ver?", "shown": lambda rng, b: (
             "docker", {"args": "compose logs --since 6h celery-nfe"},
             celery_logs(rng, b, [f"loja-celery-nfe-1 | [{_ts(rng)}: INFO/MainProcess] Task orders.tasks.emit_nfe[{task}] received"],
                         prefix="loja-celery-nfe-1 | "))},
        {"value": me, "query": "What is the Melhor Envio order id of the label?",
         "say": "o id da etiqueta no Melhor Envio é {v}", "shown": lambda rng, b: (
             "bash", {"command": "curl -sv https://melhorenvio.com.br/api/v2/me/orders/search?q=PED -H 'Authorization: Bearer $MELHORENVIO_TOKEN'"},
             curl_v(rng, "https://melhorenvio.com.br/api/v2/me/orders/search?q=PED", 200, json.dumps(
                 {"data": [{"id": me, "protocol": f"ORD-{_digits(rng, 10)}", "service_id": 3, "status": "released",
                            "price": float(_money(rng, 10, 60))}] + [{"id": _uuid(rng), "status": "posted"} for _ in range(max(1, b // 300))]})))},
        {"value": pref, "query": "What is the Mercado Pago preference id of the checkout?",
         "say": "a preference do checkout que quebrou é {v}", "shown": lambda rng, b: (
             "docker", {"args": "compose logs --since 1h web"},
             compose_logs(rng, b, [f"loja-web-1        | [{_ts(rng, ms=False)} +0000] [12] [INFO] shop.payments.mercadopago: "
                                   f"preference created id={pref} external_reference=PED-{rng.randint(20000, 69999)}"], service="web"))},
        {"value": ped, "query": "Which order number is the customer asking about?", "say": "o pedido da reclamação é o {v}",
         "shown": lambda rng, b: ("read_file", {"path": f"exports/pedidos_2026-05-{rng.randint(1, 28):02d}.csv"},
                                  orders_csv(rng, b, f"{ped},2026-05-02,RS,Porto Alegre,CHL-6CUP,1,459.00,0.00,SEDEX,pix,paid,"))},
        {"value": txid, "query": "What is the txid of the Pix charge?", "say": "o txid da cobrança é {v}",
         "shown": lambda rng, b: ("psql", {"query": "SELECT id, order_id, txid, expires_at, paid FROM payments_pixcharge WHERE paid = false "
                                           "AND expires_at < now() ORDER BY id DESC LIMIT 30;"},
                                  table(["id", "order_id", "txid", "expires_at", "paid"],
                                        [[str(rng.randint(1000, 9000)), str(rng.randint(20000, 69999)), _alnum(rng, 30),
                                          _ts(rng, ms=False) + "+00", "f"] for _ in range(max(3, b // 90))]
                                        + [[str(rng.randint(1000, 9000)), str(rng.randint(20000, 69999)), txid, _ts(rng, ms=False) + "+00", "f"]]))},
    ]


ID_SAY_OPEN = ("", "ó:", "e aí,", "hey,", "pô,", "olha só,", "quick one:", "")


def _findings(r: random.Random) -> list[dict[str, Any]]:
    """Each: value, query, shown(rng, budget) -> (tool, args, output); ``point`` is how the agent points back at it."""
    ms = f"{r.uniform(3100, 19000):.3f} ms"
    task = r.choice(("fiscal.tasks.reemitir_contingencia", "orders.tasks.sync_status_melhorenvio", "payments.tasks.capturar_pix_expirado",
                     "shipping.tasks.gerar_etiquetas_lote", "orders.tasks.notificar_atraso_entrega"))
    detail = r.choice(("cc_rejected_duplicated_payment", "pending_review_manual", "cc_rejected_high_risk", "cc_rejected_insufficient_amount"))
    mem = f"{r.uniform(1.71, 1.99):.3f}GiB"
    n500 = r.randint(140, 4800)
    got, want = r.uniform(14, 40), r.uniform(41, 90)
    p95 = f"p95={r.uniform(2.1, 9.9):.3f}s"
    removed = f"Rows Removed by Filter: {r.randint(1_100_000, 9_900_000)}"
    llen = f"(integer) {r.randint(10000, 99999)}"
    expire = f"expire date: {r.choice(('May', 'Jun'))} {r.randint(1, 28):2d} {r.randint(0, 23):02d}:{r.randint(0, 59):02d}:{r.randint(0, 58):02d} 2026 GMT"
    count = f'"count": "{r.randint(10000, 99999)}"'
    bench = f"{r.randint(150000, 990000)} ns/op"
    explain_q = {"query": "EXPLAIN (ANALYZE, BUFFERS) SELECT * FROM orders_order WHERE status IN ('paid','invoiced') "
                          "AND created_at >= now() - interval '90 days' ORDER BY created_at DESC LIMIT 50;"}
    return [
        {"value": ms, "query": "How long did the slow orders query take under EXPLAIN ANALYZE?",
         "shown": lambda rng, b: ("psql", explain_q, explain(rng, b, exec_ms=ms))},
        {"value": task, "query": "Which Celery task is the one failing?", "shown": lambda rng, b: (
            "docker", {"args": "compose logs --since 12h celery"},
            celery_logs(rng, b, [f"loja-celery-1     | [{_ts(rng)}: ERROR/ForkPoolWorker-{rng.randint(1, 8)}] Task {task}"
                                 f"[{_uuid(rng)}] raised unexpected: KeyError('status')"], prefix="loja-celery-1     | "))},
        {"value": detail, "query": "What status detail did Mercado Pago report for the payment?",
         "shown": lambda rng, b: ("bash", {"command": "cat /tmp/mp_webhook_dump.txt"},
                                  mp_webhook(rng, status="rejected", detail=detail))},
        {"value": mem, "query": "How much memory did the NF-e worker reach at its peak?",
         "shown": lambda rng, b: ("docker", {"args": "stats --no-stream"}, docker_stats(rng, f"{mem} / 2GiB"))},
        {"value": f"HTTP 500: {n500} respostas", "query": "How many server errors did nginx log in the last day?",
         "shown": lambda rng, b: ("bash", {"command": "python3 scripts/log_summary.py /var/log/nginx/access.log --since 24h"},
                                  "\n".join([f"HTTP 200: {rng.randint(40000, 90000)} respostas", f"HTTP 301: {rng.randint(10, 900)} respostas",
                                             f"HTTP 404: {rng.randint(100, 3000)} respostas", f"HTTP 499: {rng.randint(10, 400)} respostas",
                                             f"HTTP 500: {n500} respostas", f"HTTP 502: {rng.randint(1, 90)} respostas", "",
                                             "top URLs com 5xx:"] + [f"  {rng.randint(5, 900):>5}  {u}" for u in URLS]) + "\n" + nginx_logs(rng, b))},
        {"value": f"valor={got:.2f} esperado={want:.2f}", "query": "What did the wrong shipping quote come back as, against what was expected?",
         "shown": lambda rng, b: ("docker", {"args": "compose logs --since 3h shipping"}, compose_logs(rng, b, [
             f'loja-shipping-1   | time={_ts(rng, "T", False)}Z level=WARN msg="cotação divergente" servico=SEDEX cep_destino=9567{rng.randint(1000, 9999)} '
             f"valor={got:.2f} esperado={want:.2f}"], service="shipping"))},
        {"value": p95, "query": "What is the checkout's 95th-percentile response time?",
         "shown": lambda rng, b: ("bash", {"command": "python3 scripts/latency.py /var/log/nginx/access.log --paths /checkout/ /api/frete/cotacao/"},
                                  f"GET /checkout/  n={rng.randint(2000, 9000)}  p50={rng.uniform(0.2, 0.9):.3f}s  {p95}  p99={rng.uniform(10, 20):.3f}s\n"
                                  f"GET /api/frete/cotacao/  n={rng.randint(2000, 9000)}  p50={rng.uniform(0.2, 0.9):.3f}s  p99={rng.uniform(3, 9):.3f}s\n"
                                  + nginx_logs(rng, b))},
        {"value": removed, "query": "How many rows did the slow plan throw away in its filter?",
         "shown": lambda rng, b: ("psql", explain_q, explain(rng, b, extra=["        " + removed]))},
        {"value": llen, "query": "How long is the nfe queue in Redis?",
         "shown": lambda rng, b: ("bash", {"command": "docker compose exec redis sh -c 'redis-cli llen nfe; redis-cli llen celery; redis-cli info memory'"},
                                  f"{llen}\n(integer) {rng.randint(0, 40)}\n# Memory\nused_memory:{rng.randint(10**8, 4 * 10**8)}\n"
                                  f"used_memory_human:{rng.uniform(100, 400):.2f}M\nmaxmemory_human:512.00M\nmaxmemory_policy:allkeys-lru\n"
                                  + compose_logs(rng, b, service="redis"))},
        {"value": expire, "query": "When does the TLS certificate of the shop expire?",
         "shown": lambda rng, b: ("bash", {"command": "curl -sv https://lojagraosul.com.br/healthz/ -o /dev/null"},
                                  "\n".join("*  " + expire if "expire date" in x else x for x in curl_v(
                                      rng, "https://lojagraosul.com.br/healthz/", 200, '{"status": "ok"}').splitlines())
                                  + "\n" + nginx_logs(rng, b))},
        {"value": count, "query": "How many events has the Sentry issue accumulated?",
         "shown": lambda rng, b: ("sentry", {"action": "issues.get", "project": "loja-celery"},
                                  sentry_issue(rng, extra={"count": count.split('"')[3]}))},
        {"value": bench, "query": "How fast is a shipping quote in the Go benchmark?",
         "shown": lambda rng, b: ("go", {"args": "test -run XXX -bench BenchmarkQuote -benchmem ./internal/quote/"},
                                  f"goos: linux\ngoarch: amd64\npkg: {GO_MOD}/internal/quote\ncpu: AMD EPYC-Rome Processor\n"
                                  f"BenchmarkQuoteParallel-4   \t    {rng.randint(1000, 9000)}\t    {bench}\t   {rng.randint(9000, 40000)} B/op\t     "
                                  f"{rng.randint(90, 400)} allocs/op\nBenchmarkCubagem-4         \t{rng.randint(10**6, 9 * 10**6)}\t       "
                                  f"{rng.randint(20, 90)}.{rng.randint(10, 99)} ns/op\nPASS\nok  \t{GO_MOD}/internal/quote\t{rng.uniform(2, 9):.3f}s\n"
                                  + go_test(rng, b, verbose=True))},
    ]


FIND_POINT = ("é isso aí que tá quebrando.", "That's the culprit, right there in the output.", "Achei: tá ali no meio do resultado.",
              "Olha esse número aí em cima — explica a lentidão.", "Esse é o valor que importa.", "There it is.",
              "taí o problema.", "Esse dado bate com o que o cliente relatou.")


def _errors(r: random.Random) -> list[dict[str, Any]]:
    """Each: value (a whole line of the tool's output), query, tool, args, out(rng, budget), clean(rng, budget), fix path."""
    a, b = r.uniform(14, 60), r.uniform(61, 99)
    tname = f"test_{r.choice(('pix', 'frete', 'cupom', 'nfe', 'webhook'))}_{r.choice(('idempotente', 'arredonda', 'duplicado', 'expirado', 'parcial'))}_{r.randint(2, 99)}"
    fail = f"FAILED tests/test_{r.choice(('checkout', 'pix', 'webhooks', 'nfe'))}.py::{tname} - AssertionError: assert Decimal('{a:.2f}') == Decimal('{b:.2f}')"
    uid = _uuid(r)
    ts = _ts(r)
    celery_err = (f"loja-celery-nfe-1 | [{ts}: ERROR/ForkPoolWorker-1] Task orders.tasks.emit_nfe[{uid}] raised unexpected: "
                  f"NFeRejeitada('Rejeição 539: Duplicidade de NF-e')")
    sub = f"TestQuoteSEDEX/cep_{r.randint(10000, 99999)}{r.randint(100, 999)}_peso_{r.randint(200, 9000)}g"
    gofail = f"--- FAIL: {sub} ({r.uniform(0, 0.09):.2f}s)"
    sym = r.choice(("correios.ServicoSedex12", "melhorenvio.ErrSaldoInsuficiente", "cache.WithJitter", "quote.OptionByPrazo"))
    file = r.choice(("quote/quote.go", "quote/fallback.go", "melhorenvio/client.go", "correios/client.go"))
    gobuild = f"internal/{file}:{r.randint(20, 300)}:{r.randint(2, 40)}: undefined: {sym}"
    p1, p2, tx = r.randint(20000, 99999), r.randint(20000, 99999), r.randint(10**6, 10**8)
    deadlock = f"DETAIL:  Process {p1} waits for ShareLock on transaction {tx}; blocked by process {p2}."
    idx = f"orders_order_status_paid_{_hex(r, 6)}_idx"
    migr = f'django.db.utils.ProgrammingError: relation "{idx}" already exists'
    chave = _nfe_key(r)
    nfe = json.dumps({"codigo": "539", "mensagem": f"Rejeição 539: Duplicidade de NF-e, com diferença na Chave de Acesso [chNFe:{chave}]"},
                     ensure_ascii=False)
    n_conn = r.randint(10000, 999999)
    upstream = (f'2026/05/{r.randint(1, 28):02d} {r.randint(0, 23):02d}:{r.randint(0, 59):02d}:{r.randint(0, 59):02d} [error] 31#31: '
                f'*{n_conn} upstream timed out (110: Connection timed out) while reading response header from upstream, client: '
                f'{_client_ip(r)}, server: lojagraosul.com.br, request: "POST /webhooks/mercadopago/ HTTP/2.0", '
                f'upstream: "http://172.18.0.5:8000/webhooks/mercadopago/", host: "lojagraosul.com.br"')
    bind = (f"Error response from daemon: driver failed programming external connectivity on endpoint loja-shipping-1 "
            f"({_hex(r, 64)}): Bind for 0.0.0.0:8081 failed: port is already allocated")
    uniq = f'django.db.utils.IntegrityError: duplicate key value violates unique constraint "payments_pixcharge_txid_{_hex(r, 8)}_uniq"'
    vet = f"internal/melhorenvio/client.go:{r.randint(20, 300)}:{r.randint(2, 30)}: fmt.Sprintf format %d has arg pkg.PesoKg of wrong type float64"
    pid = r.randint(100, 999)
    wto = f"loja-web-1        | [{_ts(r, ms=False)} +0000] [1] [CRITICAL] WORKER TIMEOUT (pid:{pid})"
    mp401 = json.dumps({"message": "invalid access token", "error": "unauthorized", "status": 401,
                        "cause": [{"code": 2000, "description": "invalid token", "data": f"{_ts(r, 'T', False)}UTC;{_uuid(r)}"}]})
    pytest_args = {"command": "docker compose exec -T web pytest -q -p no:cacheprovider tests/"}
    gotest_args = {"args": "test ./..."}
    return [
        {"value": fail, "query": "Which test failed in the pytest run, with what assertion?", "tool": "bash", "args": pytest_args,
         "out": lambda rng, n: pytest_run(rng, n, fail_lines=[fail]), "clean": lambda rng, n: pytest_run(rng, n, clean=True),
         "fix": "shop/payments/pix.py"},
        {"value": celery_err, "query": "What error did the NF-e Celery worker log?", "tool": "docker",
         "args": {"args": "compose logs --since 30m celery-nfe"},
         "out": lambda rng, n: celery_logs(rng, n, [celery_err], prefix="loja-celery-nfe-1 | "),
         "clean": lambda rng, n: celery_logs(rng, n, prefix="loja-celery-nfe-1 | "), "fix": "shop/fiscal/tasks.py"},
        {"value": gofail, "query": "Which Go test case failed?", "tool": "go", "args": gotest_args,
         "out": lambda rng, n: go_test(rng, n, fail=[gofail, f"    quote_test.go:{rng.randint(40, 200)}: got {a:.2f}, want {b:.2f}"]),
         "clean": lambda rng, n: go_test(rng, n), "fix": "shipping/internal/quote/quote.go"},
        {"value": gobuild, "query": "What did go build complain about?", "tool": "go", "args": {"args": "build ./..."},
         "out": lambda rng, n: go_build_error(rng, gobuild), "clean": lambda rng, n: go_test(rng, n),
         "fix": "shipping/internal/melhorenvio/client.go"},
        {"value": deadlock, "query": "What did Postgres report about the deadlock?", "tool": "psql",
         "args": {"query": "UPDATE catalog_product SET stock = stock - 1 WHERE sku = ANY(ARRAY['CAF-MANT-500','V60-CER-02']);"},
         "out": lambda rng, n: "\n".join(["ERROR:  deadlock detected", deadlock,
                                          f"Process {p2} waits for ShareLock on transaction {tx - rng.randint(1, 40)}; blocked by process {p1}.",
                                          "HINT:  See server log for query details.",
                                          f'CONTEXT:  while updating tuple ({rng.randint(100, 9000)},{rng.randint(1, 40)}) in relation "catalog_product"']),
         "clean": lambda rng, n: "UPDATE 2", "fix": "shop/catalog/tasks.py"},
        {"value": migr, "query": "Why did the migration fail?", "tool": "manage_py", "args": {"args": "migrate --settings=config.settings.staging"},
         "out": lambda rng, n: migrate_output(rng, [migr]), "clean": lambda rng, n: migrate_output(rng).replace("No migrations to apply.", "  Applying orders.0015_order_status_paid_idx... OK (3.118s)"),
         "fix": "shop/orders/models.py"},
        {"value": nfe, "query": "What did the NF-e provider answer when the invoice was sent?", "tool": "bash",
         "args": {"command": "curl -sv -X POST https://api.focusnfe.com.br/v2/nfe?ref=PED-retry -d @/tmp/nfe.json"},
         "out": lambda rng, n: curl_v(rng, "https://api.focusnfe.com.br/v2/nfe?ref=PED-retry", 422, nfe, "POST"),
         "clean": lambda rng, n: curl_v(rng, "https://api.focusnfe.com.br/v2/nfe?ref=PED-retry", 202,
                                        json.dumps({"status": "processando_autorizacao", "ref": "PED-retry"}), "POST"),
         "fix": "shop/fiscal/client.py"},
        {"value": upstream, "query": "What did nginx log when the Mercado Pago webhook failed?", "tool": "bash",
         "args": {"command": "docker compose exec nginx tail -n 300 /var/log/nginx/error.log"},
         "out": lambda rng, n: "\n".join(_insert(rng, _fill([], n, lambda: nginx_error_line(rng)), [upstream])),
         "clean": lambda rng, n: "\n".join(_fill([], n, lambda: nginx_error_line(rng))), "fix": "deploy/nginx/loja.conf"},
        {"value": bind, "query": "Why could the shipping container not start?", "tool": "docker", "args": {"args": "compose up -d shipping"},
         "out": lambda rng, n: f"[+] Running 1/2\n ✔ Container loja-redis-1     Running\n ⠿ Container loja-shipping-1  Starting\n{bind}",
         "clean": lambda rng, n: "[+] Running 2/2\n ✔ Container loja-redis-1     Running\n ✔ Container loja-shipping-1  Started\n" + compose_ps(rng),
         "fix": "docker-compose.yml"},
        {"value": uniq, "query": "Which unique constraint did the Pix confirmation violate?", "tool": "manage_py",
         "args": {"args": "shell -c \"from shop.payments.pix import confirm_pix; confirm_pix('reprocess-batch')\""},
         "out": lambda rng, n: "\n".join(django_traceback(rng, uniq, web=False)),
         "clean": lambda rng, n: f"reprocessadas: {rng.randint(3, 40)}  ignoradas (já pagas): {rng.randint(0, 9)}", "fix": "shop/payments/pix.py"},
        {"value": vet, "query": "What did go vet find?", "tool": "go", "args": {"args": "vet ./..."},
         "out": lambda rng, n: go_vet(rng, vet), "clean": lambda rng, n: go_vet(rng) or "", "fix": "shipping/internal/melhorenvio/client.go"},
        {"value": wto, "query": "What did gunicorn log when the web container stalled?", "tool": "docker", "args": {"args": "compose logs --since 1h web"},
         "out": lambda rng, n: compose_logs(rng, n, [wto], service="web"), "clean": lambda rng, n: compose_logs(rng, n, service="web"),
         "fix": "docker-compose.yml"},
        {"value": mp401, "query": "What did the Mercado Pago API answer to the payment lookup?", "tool": "bash",
         "args": {"command": "curl -sv https://api.mercadopago.com/v1/payments/search?sort=date_created -H \"Authorization: Bearer $MP\""},
         "out": lambda rng, n: curl_v(rng, "https://api.mercadopago.com/v1/payments/search?sort=date_created", 401, mp401),
         "clean": lambda rng, n: curl_v(rng, "https://api.mercadopago.com/v1/payments/search?sort=date_created", 200,
                                        mp_webhook(rng).split("# GET ")[-1].split("\n", 1)[1]), "fix": "shop/payments/mercadopago.py"},
    ]


def nginx_error_line(rng: random.Random) -> str:
    return (f"2026/05/{rng.randint(1, 28):02d} {rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d} "
            + rng.choice((f"[warn] 31#31: *{rng.randint(100, 9999)} an upstream response is buffered to a temporary file "
                          f"/var/cache/nginx/proxy_temp/{rng.randint(1, 9)}/0{rng.randint(1, 9)}/00000{rng.randint(100, 999)} while reading upstream",
                          f"[error] 31#31: *{rng.randint(100, 9999)} open() \"/usr/share/nginx/html/wp-login.php\" failed "
                          f"(2: No such file or directory), client: {_client_ip(rng)}, server: lojagraosul.com.br",
                          f"[notice] 1#1: signal 17 (SIGCHLD) received from {rng.randint(30, 90)}",
                          f"[warn] 31#31: *{rng.randint(100, 9999)} limiting requests, excess: {rng.uniform(5, 20):.3f} by zone \"api\", "
                          f"client: {_client_ip(rng)}")))


FACT_FILES = ("shop/payments/signature.py", "shop/fiscal/contingencia.py", "shipping/internal/quote/fallback_correios.go",
              "shipping/internal/correios/token_cache.go", "admin/src/components/NfeStatusBadge.tsx",
              "deploy/backup/pg_dump_storagebox.sh", "tests/test_pix_idempotencia.py", "shop/orders/cancelamento.py",
              "scripts/reconcile_mp.py", "deploy/nginx/rate_limit_webhooks.conf",
              "shop/fiscal/management/commands/reprocessar_rejeitadas.py", "shipping/internal/melhorenvio/retry.go",
              "shop/core/logging_filters.py", "tests/test_quote_cubagem.py", "shop/checkout/throttling.py")


def _files(r: random.Random) -> list[dict[str, Any]]:
    n = r.randint(15, 60)
    mig = f"shop/orders/migrations/{n:04d}_order_{r.choice(('nfe_status_idx', 'cancel_deadline', 'label_url', 'paid_partial_idx'))}.py"
    out = []
    for path in (*FACT_FILES, mig):
        stem = path.rsplit("/", 1)[-1].split(".")[0].lstrip("0123456789_").replace("_", " ")
        out.append({"value": path, "query": f"Which file did the agent write for the {stem} change?"})
    return out


def file_body(rng: random.Random, path: str, size: int) -> str:
    """Plausible content for a file the agent writes."""
    ext = path.rsplit(".", 1)[-1]
    stem = path.rsplit("/", 1)[-1].split(".")[0]
    if ext == "py":
        head = [f'"""{stem.replace("_", " ").capitalize()} (Grão Sul)."""', "", "from __future__ import annotations", "",
                "import logging", "from decimal import Decimal", "", "from django.db import transaction", "",
                "log = logging.getLogger(__name__)", ""]
    elif ext == "go":
        head = [f"package {path.split('/')[-2]}", "", "import (", '\t"context"', '\t"time"', ")", ""]
    elif ext == "tsx":
        head = ["import { Badge } from '../ui/Badge';", "", "type Props = { status: string };", ""]
    else:
        head = ["#!/usr/bin/env bash", "set -euo pipefail"] if ext == "sh" else ["# nginx"]

    def make() -> str:
        if ext == "py":
            return "\n".join([f"def {rng.choice(WORDS)}_{rng.choice(WORDS)}(order_id: int, *, dry_run: bool = False) -> bool:",
                              "    order = Order.objects.select_for_update().get(pk=order_id)",
                              f"    if order.status != '{rng.choice(STATUSES)}':",
                              "        log.info('pedido %s ignorado: status %s', order.pk, order.status)",
                              "        return False",
                              f"    total = order.subtotal + Decimal('{_money(rng, 0, 50)}')",
                              "    if dry_run:", "        return True",
                              "    with transaction.atomic():", "        order.save(update_fields=['status', 'updated_at'])",
                              "    return True", ""])
        if ext == "go":
            return "\n".join([f"func {rng.choice(('retry', 'fallback', 'cached', 'guard'))}{rng.randint(1, 99)}(ctx context.Context, cep string) (float64, error) {{",
                              f"\tctx, cancel := context.WithTimeout(ctx, {rng.randint(500, 3000)}*time.Millisecond)",
                              "\tdefer cancel()", "\tselect {", "\tcase <-ctx.Done():", "\t\treturn 0, ctx.Err()",
                              "\tdefault:", "\t}", f"\treturn {rng.uniform(10, 90):.2f}, nil", "}", ""])
        if ext == "tsx":
            return (f"const LABEL_{rng.randint(1, 99)}: Record<string, string> = {{ autorizada: 'NF-e emitida', "
                    f"erro: 'Rejeitada', processando: 'Processando' }};\n")
        if ext == "sh":
            return f"pg_dump -Fc -d loja | ssh -p23 u{rng.randint(100000, 999999)}@storagebox 'cat > dumps/loja_$(date +%F).dump'"
        return f"limit_req zone=webhooks burst={rng.randint(5, 40)} nodelay;"
    return "\n".join(_fill(head, size, make))


# --- what the user and the agent say around the facts ---------------------------------------------------------

REQUESTS = (  # (scenario, request): the user's everyday asks
    ("tests", "roda a suíte toda aí, mexi no cupom ontem à noite"), ("tests", "can you run the tests? I touched the checkout form"),
    ("tests", "os testes do webhook tão verdes? quero subir hj"), ("tests", "roda só os de pix e nfe, o resto tá lento"),
    ("celery", "o celery-nfe tá engasgando de novo, dá uma olhada nos logs"), ("celery", "check the celery workers, some emails didn't go out"),
    ("celery", "as tasks de rastreio tão rodando? cliente reclamou que não atualiza"), ("celery", "o beat tá agendando a conciliação do MP?"),
    ("db", "o checkout tá lento hoje, vê o que tá pegando no banco"), ("db", "quantos pedidos pagos sem nota a gente tem?"),
    ("db", "the admin orders list takes forever, check the query"), ("db", "vê se tem lock preso no postgres, o estoque travou"),
    ("shipping", "o frete pra Manaus tá vindo zerado, vê o serviço de Go"), ("shipping", "cotação do Melhor Envio tá demorando uns 6s"),
    ("shipping", "roda os testes do shipping, mexi na cubagem"), ("shipping", "is the Go service building? CI went red"),
    ("nfe", "tem nota rejeitada de ontem, vê o que o provedor respondeu"), ("nfe", "a emissão de NF-e parou depois das 14h"),
    ("nfe", "confere se as notas de ontem saíram todas"), ("pix", "pix caiu? dois clientes disseram que o QR expirou na hora"),
    ("pix", "o webhook do MP tá respondendo 200?"), ("pix", "check the Mercado Pago webhooks from this morning"),
    ("deploy", "como tão os containers? o site deu uma piscada"), ("deploy", "sobe a versão nova no staging"),
    ("deploy", "quanto de memória o worker tá usando?"), ("deploy", "nginx tá com muito 502, vê aí"),
    ("admin", "o admin não tá mostrando o status da nota"), ("admin", "a Jéssica disse que o filtro de status do admin sumiu"),
    ("sentry", "chegou um monte de alerta do Sentry, vê o que é"), ("sentry", "any new Sentry issues since the deploy?"),
    ("files", "me mostra como tá o settings de produção"), ("files", "abre o docker-compose, quero ver os limites de memória"),
    ("files", "exporta os pedidos de maio pra eu ver"), ("files", "what's in models.py for Payment again?"),
    ("db", "roda um explain naquela query de pedidos"), ("nfe", "a SEFAZ tá fora? várias notas em processamento"),
    ("shipping", "o PAC tá vindo mais caro que o SEDEX pra Recife, tem algo errado"), ("deploy", "disco da VM tá enchendo?"),
    ("tests", "quebrou algum teste com a mudança do frete grátis?"), ("pix", "tem pix pago e pedido ainda aguardando pagamento"),
)
OPENERS = ("", "", "bom dia!", "e aí,", "opa,", "ok,", "beleza.", "valeu!", "hmm", "pô,", "so,", "blz,", "tá,", "next:",
           "outra coisa:", "hey,", "boa tarde,", "bora:", "now", "fechou.", "show.", "massa.")
CLOSERS = ("", "", "", "valeu", "bora", "thx", "sem pressa", "urgente pfv", "depois me fala", "né", "pls", "🙏", "tmj",
           "me avisa qq coisa", "quando puder")
PREFACE = {
    "bash": ("Vou rodar isso no container.", "Running it.", "", "Checking the logs first.", "Deixa eu ver os logs.", "",
             "Rodando a suíte.", "Vou consultar a API direto.", ""),
    "read_file": ("Abrindo o arquivo.", "Let me read it first.", "", "Vou ver o arquivo antes de mexer.", ""),
    "write_file": ("Criando o arquivo.", "Writing it.", "", "Vou escrever a versão nova.", ""),
    "edit_file": ("Ajustando.", "Small edit.", "", "Corrigindo essa linha.", "Aplicando a mudança.", ""),
    "psql": ("Consultando a réplica.", "Querying the replica.", "", "Vou olhar no banco.", ""),
    "manage_py": ("Rodando no staging.", "", "Checking migrations.", "Vou ver as migrations.", ""),
    "go": ("Rodando os testes do shipping.", "", "Building the Go service.", "go vet também.", ""),
    "docker": ("Vendo os containers.", "", "Checking compose.", "Olhando os logs do compose.", ""),
    "sentry": ("Puxando do Sentry.", "", "Checking Sentry.", ""),
}
SUMMARY_BY = {
    "tests": ("Suíte rodada: {n} passando, {k} skip. Nada quebrou com a mudança.", "Tests are green — {n} passed. The coupon change didn't touch anything else.",
              "Rodei os testes de pix e nfe: {n} ok. Os lentos são os de integração com o MP mockado.",
              "Tudo verde. O mais lento foi o test_checkout, uns {k}s."),
    "celery": ("O worker tá processando normal, {k} retries por timeout do provedor nas últimas {h}h.",
               "Celery looks healthy: tasks succeeding, {k} retries in the last {h}h, queue draining.",
               "O beat está agendando a conciliação a cada hora; as últimas {k} rodaram ok.",
               "Reiniciei o worker; a fila baixou pra {k} itens em poucos minutos."),
    "db": ("A query mais cara é a listagem do admin: {ms}ms em média, seq scan em orders_order.",
           "São {n} pedidos pagos sem nota, a maioria de ontem à tarde.", "No locks held now; the last one cleared {k} minutes ago.",
           "O plano mostra o índice de status sendo ignorado por causa do ORDER BY; dá pra resolver com índice composto."),
    "shipping": ("Build e testes do shipping ok. A cotação de Manaus vem do Melhor Envio, o Correios não respondeu a tempo.",
                 "Go service builds and tests pass; quotes come back in ~{ms}ms.",
                 "A cubagem está certa; a diferença de preço é do contrato, não do código.",
                 "O PAC vem mais caro pra Recife porque a tabela do contrato mudou; não é bug nosso."),
    "nfe": ("As notas de ontem: {n} autorizadas, {k} em processamento. Nenhuma rejeitada nova.",
            "A SEFAZ-RS está respondendo devagar, mas responde; {k} notas na fila.",
            "The provider answered 200 for all of yesterday's invoices except {k}, which are still processing.",
            "Conferi: a emissão voltou depois do restart do worker de NF-e."),
    "pix": ("Os webhooks de hoje responderam 200, {n} ao todo. Nenhum preso.",
            "The Mercado Pago webhooks from this morning all got 200; nothing stuck.",
            "Achei {k} pix pagos com pedido ainda aguardando; o webhook chegou antes do pedido ser salvo.",
            "O QR expira em 30 min como configurado; os clientes provavelmente abriram depois."),
    "deploy": ("Os containers estão saudáveis, uptime de {h}h. O pico de CPU foi no beat, normal pro horário.",
               "All containers up; the web one restarted {k} times overnight (OOM on a worker).",
               "Os 502 do nginx foram durante o restart do web, {k} minutos ao todo.",
               "Disco em {k}0%, o grosso é o volume do postgres e os dumps antigos."),
    "admin": ("O admin pega o status da nota do endpoint /api/admin/orders/; o campo vinha nulo pra notas em processamento.",
              "Fixed the status filter; it was reading the wrong query param.", "Ajustei o badge; agora mostra NF-e emitida.",
              "O filtro sumiu porque o componente de tabela foi atualizado; recoloquei."),
    "sentry": ("Encontrei {k} issues novos no Sentry, todos do mesmo culprit. Deixei anotado.",
               "Sentry: {k} new issues since the deploy, two of them are the Melhor Envio timeouts we already know.",
               "A maioria dos alertas é ReadTimeout do provedor de NF-e; nada no checkout."),
    "files": ("Olhei o arquivo; a configuração está como você lembrava, nada a mudar.",
              "Ok, o export tem {n} linhas. Salvei em exports/ se quiser abrir no Excel.",
              "The memory limit for celery-nfe is set in docker-compose.yml; the others have none.",
              "Payment tem mp_payment_id único e status_detail; nada de dado de cartão."),
}
SUMMARY = (
    "Rodei e revisei. {n} itens conferidos, nada fora do esperado além do que apontei.",
    "Pronto. Os logs estão limpos nas últimas {h}h, só {k} retries de timeout do provedor.",
    "Done — {n} checks, {k} warnings, none related to what you changed.",
    "Conferi: {k} pedidos nessa situação, listei os ids acima. Quer que eu corrija em lote?",
    "A latência voltou pro normal depois do restart; p50 em torno de {ms}ms.",
    "Tudo verde: {n} testes passando, {k} skip.",
    "Os containers estão saudáveis, uptime de {h}h. O pico de CPU foi no beat, normal pro horário.",
    "Encontrei {k} ocorrências no Sentry, todas do mesmo culprit. Deixei anotado.",
    "I looked at it: the slow part is the join with orders_orderitem, {ms}ms on average.",
    "Feito. Mudança pequena, {k} linhas; não mexi em mais nada.",
    "The webhooks from this morning all got 200, {n} of them. Nothing stuck.",
    "As notas de ontem: {n} autorizadas, {k} em processamento. Nenhuma rejeitada nova.",
    "Olhei o arquivo; a configuração está como você lembrava, nada a mudar.",
    "Ok, o export tem {n} linhas. Salvei em exports/ se quiser abrir no Excel.",
    "Rodei o build do shipping e os testes: ok. A cotação de Manaus vem do Melhor Envio mesmo.",
    "Fila do celery em {k} itens, drenando normal.",
)
ACK = ("Anotado.", "Beleza, anotado.", "Ok, vou seguir isso.", "Entendido.", "Got it.", "Combinado.", "Certo, fica registrado.",
       "Ok.", "Perfeito.", "Noted.")
FINAL_ASKS = ("valeu! amanhã a gente continua", "ok, next: vê o relatório de vendas da semana", "beleza, por hoje é isso",
              "show. depois olha o admin tb", "thanks, let's pick this up tomorrow", "massa, valeu")
PARA1 = ("Semana que vem começa a campanha do Dia das Mães e a gente vai mandar newsletter pra base toda, uns 9 mil emails.",
         "Falei com o pessoal do Melhor Envio hoje, eles vão mudar a API de etiquetas no mês que vem.",
         "A contadora fechou o mês e achou umas notas com CFOP errado, nada grave mas deu trabalho.",
         "O movimento de sábado foi o maior do ano fora da Black Friday, o site aguentou mas o admin ficou lento.",
         "Comprei um lote grande de moedores Hario e vou fazer um kit presente com café, deve vender bem em junho.",
         "So the investor call went fine, they mostly asked about repeat purchases and shipping costs.",
         "O Cleiton do depósito vai tirar férias em julho e quem fica é o Juninho, que não conhece o sistema.",
         "Tô pensando em abrir venda pra empresas (café pra escritório), com boleto faturado.")
PARA2_LEAD = ("Sobre o sistema:", "Enfim.", "Mas o que importa pra ti:", "Anyway.", "Do lado técnico:", "Então.")
STALE_LEAD = ("ah, e", "fyi:", "lembrando que", "só pra tu saber,", "detalhe:", "")
DEC_FIRST = ("por enquanto a ideia é {s}.", "tô inclinado a {s}, vamos nessa.", "acho que vamos de {s}.",
             "vamos testar {s}.", "plan for now: {s}.")


def _user_line(r: random.Random, ev: dict[str, Any]) -> str:
    """The user's sentence carrying one event's value."""
    kind, p = ev["kind"], ev["p"]
    if kind == "instruction":
        tail = r.choice(INSTR_TAIL)
        return f"{r.choice(INSTR_OPEN)} {p['value']}. {tail}".strip()
    if kind == "correction":
        return f"{r.choice(CORR_OPEN)} {p['fix'].format(v=p['value'], s=p['stale'])}".strip()
    if kind == "stale":
        q = ev["of"]["p"]
        if ev["of"]["kind"] == "correction":
            return f"{r.choice(STALE_LEAD)} {q['say'].format(s=q['stale'])}.".strip()
        return r.choice(DEC_FIRST).format(s=q["stale"])
    if kind == "decision":
        tmpl = r.choice(DEC_REVISE if p.get("stale") else DEC_SAY)
        return tmpl.format(v=p["value"])
    if kind == "plan":
        return r.choice(PLAN_SAY).format(v=p["value"])
    return f"{r.choice(ID_SAY_OPEN)} {p['say'].format(v=p['value'])}".strip()


def _paragraphs(r: random.Random, line: str, request: str) -> str:
    """A long message whose second paragraph holds ``line`` in its middle."""
    first = " ".join(r.sample(PARA1, 2))
    before, after = r.sample(SUMMARY_USER, 2)
    second = f"{r.choice(PARA2_LEAD)} {before} Ah, e {line} {after}"
    return f"{first}\n\n{second}\n\n{request}"


SUMMARY_USER = ("O resto do checkout tá ok pelo que vi.", "A gente não tem muito tempo essa semana.",
                "Os clientes de SP reclamaram do prazo, mas é Correios.", "O sócio quer relatório de margem por produto.",
                "Tem também a troca do certificado A1 que vence logo.", "Nada urgente além disso.")


# --- the session ----------------------------------------------------------------------------------------------

FILLER_WRITES = ("tests/test_checkout.py", "tests/test_webhooks.py", "scripts/check_orders.py", "shop/orders/views.py",
                 "shop/payments/webhooks.py", "shipping/internal/quote/quote.go", "shop/fiscal/tasks.py")


class _Build:
    def __init__(self, seed: int, n: int, attempt: int) -> None:
        self.r = random.Random(seed * 1_000_003 + attempt * 7919 + 17)
        self.n = n
        self.msgs: list[Message] = [{"role": "system", "content": SYSTEM}]
        self.chars = len(SYSTEM)
        self.facts: list[Fact] = []
        self.pasted: list[tuple[int, str]] = []
        self.calls = 0
        self.deck: list[tuple[str, str]] = []
        self.unused = list(TOOLS)
        self.r.shuffle(self.unused)

    # messages
    def _add(self, m: Message) -> int:
        self.msgs.append(m)
        self.chars += len(text_of(m))
        return len(self.msgs) - 1

    def user(self, text: str) -> int:
        return self._add({"role": "user", "content": text})

    def call(self, steps: list[tuple[str, dict[str, Any], str]], preface: str = "") -> list[int]:
        """One assistant message with the steps' calls, answered at once; returns [assistant index, tool indices...]."""
        calls = []
        for name, args, _out in steps:
            self.calls += 1
            calls.append({"id": f"call_{self.calls:05d}_{_alnum(self.r, 6)}", "type": "function",
                          "function": {"name": name, "arguments": json.dumps(args, ensure_ascii=False)}})
            if name in self.unused:
                self.unused.remove(name)
        at = [self._add({"role": "assistant", "content": preface, "tool_calls": calls})]
        for c, (name, _args, out) in zip(calls, steps):
            at.append(self._add({"role": "tool", "tool_call_id": c["id"], "name": name, "content": out}))
        return at

    def say(self, text: str) -> int:
        return self._add({"role": "assistant", "content": text})

    def budget(self) -> int:
        deficit = (len(self.msgs) + 1) * PER_MESSAGE - self.chars
        return int(min(15000, max(500, deficit + self.r.uniform(0.4, 1.6) * PER_MESSAGE * 1.3)))

    # filler
    def filler_step(self, scenario: str) -> tuple[str, dict[str, Any], str]:
        r, b = self.r, self.budget()
        if self.unused and r.random() < 0.2:
            return self.tool_output(self.unused[0], b)
        tool, sub = r.choice(SCENE_STEPS[scenario])
        return self.tool_output(tool, b, sub)

    def tool_output(self, tool: str, b: int, sub: int | None = None) -> tuple[str, dict[str, Any], str]:
        r = self.r
        if tool == "bash":
            k = r.randrange(6) if sub is None else sub
            if k == 0:
                return tool, {"command": "docker compose exec -T web pytest -q -p no:cacheprovider " + r.choice(("tests/", "tests/test_checkout.py tests/test_pix.py", "-k webhook"))}, pytest_run(r, b)
            if k == 1:
                return tool, {"command": f"tail -n {r.choice((200, 500, 1000))} /var/log/nginx/access.log"}, nginx_logs(r, b)
            if k == 2:
                return tool, {"command": "git log --oneline -n 60"}, "\n".join(_fill([], min(b, 5000), lambda: f"{_hex(r, 7)} {r.choice(GIT_MSGS)}"))
            if k == 3:
                word = r.choice(("mp_payment_id", "emit_nfe", "select_for_update", "SHIPPING_TIMEOUT", "txid", "status_detail"))
                return tool, {"command": f"grep -rn '{word}' shop/ tests/"}, "\n".join(_fill([], min(b, 6000), lambda: (
                    f"{r.choice(FILLER_PATHS[:14])}:{r.randint(5, 400)}:    {r.choice(APP_FRAMES)[2]}  # {word}")))
            if k == 4:
                city = r.choice(CITIES)
                body = json.dumps([{"provider": r.choice(("correios", "melhorenvio")), "servico": s, "valor": float(_money(r, 12, 90)),
                                    "prazo_dias": r.randint(1, 14)} for s in ("PAC", "SEDEX", ".Package", "Mini Envios")], indent=2)
                return tool, {"command": f"curl -sv 'http://localhost:8081/quote?cep={city[2]}{r.randint(100, 999)}{r.randint(100, 999)}&peso=1.2'"}, \
                    curl_v(r, "https://shipping.internal/quote", 200, body) + "\n" + compose_logs(r, b - 1500, service="shipping")
            return tool, {"command": "docker compose logs --since 2h celery"}, celery_logs(r, b, prefix="loja-celery-1     | ")
        if tool == "read_file":
            k = r.randrange(7) if sub is None else sub
            if k == 0:
                return tool, {"path": "shop/config/settings/base.py"}, settings_py(r)
            if k == 1:
                return tool, {"path": ".env"}, env_file(r)
            if k == 2:
                return tool, {"path": "docker-compose.yml"}, compose_yml(r)
            if k == 3:
                return tool, {"path": "shop/orders/models.py"}, models_py(r)
            if k == 4:
                return tool, {"path": "shipping/internal/quote/quote.go"}, go_source(r)
            if k == 5:
                path = r.choice(("admin/src/pages/Orders.tsx", "admin/src/components/OrderStatusBadge.tsx"))
                return tool, {"path": path}, file_body(r, path, min(b, 4000))
            return tool, {"path": f"exports/pedidos_2026-0{r.randint(4, 5)}-{r.randint(1, 28):02d}.csv"}, orders_csv(r, b)
        if tool == "write_file":
            path = r.choice(FILLER_WRITES)
            body = file_body(r, path, max(400, b - 300))
            return tool, {"path": path, "content": body}, f"Wrote {len(body.encode())} bytes to {path}"
        if tool == "edit_file":
            path = r.choice(FILLER_PATHS)
            old = r.choice(APP_FRAMES)[2]
            new = old.replace("(", "(  # noqa\n", 1) if r.random() < 0.2 else old + f"  # ver pedido {r.randint(20000, 69999)}"
            return tool, {"path": path, "old_string": old, "new_string": new}, f"Edited {path}: 1 replacement ({r.randint(1, 6)} lines changed)"
        if tool == "psql":
            k = r.randrange(5) if sub is None else sub
            if k == 0:
                return tool, {"query": "SELECT id, status, total, shipping_cost, cep, city, created_at FROM orders_order ORDER BY id DESC LIMIT 60;"}, psql_orders(r, b)
            if k == 1:
                return tool, {"query": "SELECT * FROM payments_payment WHERE updated_at > now() - interval '1 day';"}, psql_payments(r, b)
            if k == 2:
                return tool, {"query": "SELECT calls, round(mean_exec_time::numeric,2) AS mean_ms, round(total_exec_time::numeric,1) AS total_ms, query FROM pg_stat_statements ORDER BY total_exec_time DESC LIMIT 25;"}, psql_stat_statements(r, b)
            if k == 3:
                return tool, {"query": "EXPLAIN ANALYZE SELECT * FROM orders_order WHERE status = 'paid' ORDER BY created_at DESC LIMIT 50;"}, explain(r, b)
            return tool, {"query": "SELECT pg_read_file('log/postgresql-Sat.log', 0, 200000);"}, pg_log(r, b)
        if tool == "manage_py":
            k = r.randrange(4) if sub is None else sub
            if k == 0:
                return tool, {"args": "showmigrations"}, showmigrations(r, r.choice((0, 0, 1, 2)))
            if k == 1:
                return tool, {"args": "migrate --settings=config.settings.staging"}, migrate_output(r)
            if k == 2:
                return tool, {"args": "check --deploy"}, "System check identified some issues:\n\nWARNINGS:\n?: (security.W004) You have not set a value for the SECURE_HSTS_SECONDS setting.\n\nSystem check identified 1 issue (0 silenced)."
            return tool, {"args": "shell -c \"from shop.orders.models import Order; print(Order.objects.values('status').annotate(n=Count('id')))\""}, \
                "<QuerySet [" + ", ".join(f"{{'status': '{s}', 'n': {r.randint(3, 9000)}}}" for s in STATUSES) + "]>"
        if tool == "go":
            k = r.randrange(3) if sub is None else sub
            if k == 0:
                return tool, {"args": "test ./..."}, go_test(r, b)
            if k == 1:
                return tool, {"args": "build ./..."}, ""
            return tool, {"args": "vet ./..."}, go_vet(r)
        if tool == "docker":
            k = r.randrange(4) if sub is None else sub
            if k == 0:
                return tool, {"args": "compose ps"}, compose_ps(r)
            if k == 1:
                return tool, {"args": "stats --no-stream"}, docker_stats(r)
            if k == 2:
                svc = r.choice(("web", "celery-nfe", "shipping"))
                return tool, {"args": f"compose restart {svc}"}, f"[+] Restarting 1/1\n ✔ Container loja-{svc}-1  Started"
            return tool, {"args": "compose logs --since 1h --tail 400"}, compose_logs(r, b)
        return tool, {"action": "issues.list", "project": r.choice(("loja-django", "loja-celery")), "query": "is:unresolved"}, \
            "[\n" + ",\n".join(sentry_issue(r) for _ in range(max(1, b // 1900))) + "\n]"


SCENE_STEPS = {
    "tests": (("bash", 0), ("bash", 0), ("edit_file", None), ("read_file", 3), ("bash", 3)),
    "celery": (("bash", 5), ("docker", 3), ("docker", 1), ("read_file", 0), ("read_file", 2)),
    "db": (("psql", 0), ("psql", 2), ("psql", 3), ("psql", 4), ("manage_py", 0), ("manage_py", 1), ("manage_py", 3)),
    "shipping": (("go", 0), ("go", 1), ("go", 2), ("bash", 4), ("read_file", 4), ("edit_file", None)),
    "nfe": (("bash", 5), ("docker", 3), ("psql", 1), ("manage_py", 3), ("bash", 3)),
    "pix": (("psql", 1), ("sentry", None), ("bash", 1), ("bash", 3), ("read_file", 3)),
    "deploy": (("docker", 0), ("docker", 1), ("docker", 2), ("docker", 3), ("bash", 1), ("read_file", 2), ("manage_py", 2), ("manage_py", 1)),
    "admin": (("read_file", 5), ("edit_file", None), ("write_file", None), ("bash", 2), ("bash", 1)),
    "sentry": (("sentry", None), ("sentry", None), ("read_file", 0), ("edit_file", None), ("bash", 2)),
    "files": (("read_file", 0), ("read_file", 1), ("read_file", 2), ("read_file", 3), ("read_file", 6), ("write_file", None)),
}
GIT_MSGS = ("fix: webhook MP idempotente", "feat(shipping): cache de cotação", "chore: bump django 5.0.6", "fix(nfe): retry em 5xx",
            "admin: filtro de status", "refactor: checkout form", "fix: arredondamento do frete", "ci: cache do pip",
            "feat: cupom por categoria", "fix(pix): expiração do QR", "docs: README deploy", "test: fixtures do MP",
            "perf: índice em orders_order(status, created_at)", "fix(go): timeout do melhor envio", "chore: sentry sample rate")


def _events(b: _Build) -> list[dict[str, Any]]:
    """Every planted fact, earlier statement and paste, each aimed at a point of the session."""
    r, n, k = b.r, b.n, per_kind(b.n)
    span = HI - LO
    kinds = ["decision", "correction", "error", "file", "identifier", "finding", "plan"]
    slots = sorted((i + 0.5) / len(kinds) for i in range(len(kinds)))
    others = slots[:-2]
    r.shuffle(others)
    slots = [slots[-1], slots[-2], *others]  # corrections and revised decisions need room for what they revise
    phase = dict(zip(kinds, slots))
    evs: list[dict[str, Any]] = []

    def at(kind: str, j: int) -> float:
        return n * (LO + span * (j + phase[kind]) / k)

    # the user's own rules: the first two early, then spread; some adopted from a pasted document
    pool = _instructions(r)
    r.shuffle(pool)
    chosen = []
    for style in ("portuguese", "casual", "conditional", "indirect"):
        chosen.append(next(x for x in pool if x[0] == style))
    chosen += [x for x in pool if x not in chosen]
    adopted = 0 if k < 3 else max(1, k // 4)
    chosen = chosen[:k - adopted]
    r.shuffle(chosen)
    docs_adopted = r.sample(list(ADOPTED), adopted)
    for j in range(k):
        t = n * (0.04 if j == 0 else 0.075) if j < 2 else n * (0.12 + (HI - 0.12) * (j - 2 + r.uniform(0.2, 0.8)) / max(1, k - 2))
        if j >= k - adopted:
            doc = docs_adopted[k - 1 - j]
            evs.append({"kind": "instruction", "carrier": "paste", "t": t, "doc": doc,
                        "p": {"value": ADOPTED[doc][0], "query": ADOPTED[doc][1], "style": "adopted"}})
        else:
            style, value, query = chosen[j]
            evs.append({"kind": "instruction", "carrier": "user", "t": t,
                        "p": {"value": value, "query": query, "style": "paragraph" if j % 3 == 1 else style}})
    # corrections: half or more near misses, about half far from what they correct
    pool_c = _corrections(r)
    near = [c for c in pool_c if sum(x == y for x, y in zip(c["value"], c["stale"])) >= len(c["value"]) // 2]
    loose = [c for c in pool_c if c not in near]
    r.shuffle(near)
    r.shuffle(loose)
    picks = near[: k - k // 3] + loose[: k // 3]
    picks = (picks + near[k - k // 3:])[:k]
    r.shuffle(picks)
    for j, c in enumerate(picks):
        t = at("correction", j)
        room = t - n * 0.035 - 3
        far = j % 2 == 0 and room > 106
        gap = r.uniform(102, min(room, 320)) if far else r.uniform(min(10.0, room), max(min(10.0, room), min(room, 45)))
        fact = {"kind": "correction", "carrier": "user", "t": t, "p": c}
        evs += [fact, {"kind": "stale", "carrier": "user", "t": t - gap, "of": fact, "p": {}}]
    # decisions: some revise an earlier choice of the user's
    pool_d = _decisions(r)
    revisable = [d for d in pool_d if "revised" in d]
    plain = [d for d in pool_d if "revised" not in d]
    r.shuffle(revisable)
    r.shuffle(plain)
    n_rev = 0 if k < 2 else max(1, k // 3)
    ds = [{"value": d["revised"], "stale": d["value"], "query": d["query"]} for d in revisable[:n_rev]]
    rest = plain + revisable[n_rev:]
    ds += [{"value": d["value"], "query": d["query"]} for d in rest[: k - n_rev]]
    order = sorted(range(k), key=lambda j: -j)  # revised decisions take the later slots
    for j, d in zip(order, ds):
        t = at("decision", j)
        fact = {"kind": "decision", "carrier": "user", "t": t, "p": d}
        evs.append(fact)
        if d.get("stale"):
            room = t - n * 0.035 - 3
            evs.append({"kind": "stale", "carrier": "user", "t": t - r.uniform(min(8.0, room), max(8.0, min(room, 200))), "of": fact, "p": {}})
    for j, (value, query) in enumerate(r.sample(_plans(r), k)):
        evs.append({"kind": "plan", "carrier": "user", "t": at("plan", j), "p": {"value": value, "query": query}})
    ids = r.sample(_identifiers(r), k)
    first = r.randrange(2)
    for j, d in enumerate(ids):
        evs.append({"kind": "identifier", "carrier": "user" if (j + first) % 2 == 0 else "tool", "t": at("identifier", j), "p": d})
    for j, d in enumerate(r.sample(_findings(r), k)):
        evs.append({"kind": "finding", "carrier": "tool", "t": at("finding", j), "p": d})
    errs = r.sample(_errors(r), k)
    resolved = set(r.sample(range(k), k // 2))
    for j, d in enumerate(errs):
        evs.append({"kind": "error", "carrier": "tool", "t": at("error", j), "p": dict(d, resolve=j in resolved)})
    for j, d in enumerate(r.sample(_files(r), k)):
        evs.append({"kind": "file", "carrier": "file", "t": at("file", j), "p": d})
    # other people's texts pasted with no rule of the user's in them
    n_paste = max(1, min(14, n // 55)) - adopted
    types = list(DOCS)
    r.shuffle(types)
    for j in range(max(0, n_paste)):
        evs.append({"kind": "paste", "carrier": "paste", "t": n * (0.05 + 0.8 * (j + r.uniform(0.1, 0.9)) / max(1, n_paste)),
                    "doc": types[j % len(types)], "p": {}})
    for e in evs:
        e["t"] = max(e["t"], n * 0.035)
    evs.sort(key=lambda e: e["t"])
    return evs


def _fit(rem: int, s_min: int, s_want: int) -> int | None:
    """A turn size from s_min up that leaves a remainder a later turn can fill (0, 2 or 4+)."""
    def ok(s: int) -> bool:
        left = rem - s
        return s != 3 and s <= rem and left not in (1, 3) and left >= 0 and not (s - s_min == 1 and s_min == 2)
    for s in [*range(s_want, s_min - 1, -1), *range(s_want + 1, rem + 1)]:
        if ok(s):
            return s
    return None


def _run(b: _Build, evs: list[dict[str, Any]]) -> None:
    r, n = b.r, b.n
    pending = list(evs)
    turn = 0
    while True:
        rem = n - len(b.msgs) - 1
        if rem <= 0:
            break
        turn += 1
        pos = len(b.msgs)
        ready = [e for e in pending if e["t"] <= pos + 1
                 and (e["kind"] not in ("correction", "decision") or not any(x.get("of") is e for x in pending))]
        if turn == 1 or pos < n * 0.03:
            ready = []
        users = [e for e in ready if e["carrier"] in ("user", "paste")]
        group: list[dict[str, Any]] = []
        if users:
            group = [users[0]] if users[0]["carrier"] == "paste" else [e for e in users if e["carrier"] == "user"][:2]
        tools = [e for e in ready if e["carrier"] == "tool"][:2]
        files = [e for e in ready if e["carrier"] == "file"][:1]
        chosen = group + tools + files
        need = sum(3 if e["kind"] == "error" and e["p"]["resolve"] else 1 for e in tools + files)
        small = n < 200 or pos < 12
        want = need + (r.choice((0, 1, 1, 2)) if small else r.choice((0, 1, 2, 2, 3, 3, 4, 5, 6)))
        s = _fit(rem, 2 + 2 * need, 2 + 2 * want + (r.random() < 0.15))
        while s is None and chosen:
            chosen.pop()
            group = [e for e in group if e in chosen]
            tools = [e for e in tools if e in chosen]
            files = [e for e in files if e in chosen]
            need = sum(3 if e["kind"] == "error" and e["p"]["resolve"] else 1 for e in tools + files)
            s = _fit(rem, 2 + 2 * need, 2 + 2 * need)
        if s is None:
            raise _Retry("no room for a turn")
        for e in chosen:
            pending.remove(e)
            e["turn"] = turn
        filler = (s - 2 - 2 * need) // 2
        parallel = (s - 2 - 2 * need) % 2
        _turn(b, group, tools, files, filler, parallel)
    if pending:
        raise _Retry("facts left over")
    b.user(r.choice(FINAL_ASKS))


class _Retry(Exception):
    pass


def _fact(b: _Build, e: dict[str, Any], index: int) -> None:
    p = e["p"]
    stale = e.get("of_stale")
    b.facts.append(Fact(e["kind"], p["value"], index, p["query"], stale=stale[0] if stale else None,
                        stale_index=stale[1] if stale else None, resolved=p.get("resolved_at")))


ADOPT_LEAD = ("disso aí, uma coisa vale pra gente também:", "ela tem razão num ponto:", "então fica valendo:",
              "a parte que importa pra ti:", "ok, this one we adopt:", "dessa lista, o que a gente segue:")
ECHO_ID = ("Achei o registro: {v}.", "É este aqui: {v}.", "Found it: {v}.", "O id que aparece é {v}.", "Esse é o que procuramos: {v}.")
ECHO_FIND = ("Olha isso: {v}.", "O número que importa: {v}.", "Key line: {v}.", "Aí está: {v}.")
ECHO_ERR = ("Falhou com:\n\n    {v}\n\nVou atrás.", "Deu erro:\n{v}", "Error:\n{v}\n\nLooking into it.", "Quebrou. A linha relevante:\n{v}")
OPEN_ERR = ("Isso não é do que estou mexendo; fica aberto, te mostro no fim.", "Not caused by this change — leaving it open for now.",
            "Esse erro depende de decisão tua, anoto e sigo.", "Fica pendente; precisa de acesso ao painel do provedor.")
AFTER_ERR = ("Falhou. Vou ver a causa.", "Erro. Vou corrigir e rodar de novo.", "That failed — fixing it.", "Quebrou, olhando.",
             "Não passou; deixo registrado e sigo.")
FIX_SAY = ("Corrigindo em {f}.", "A causa está em {f}; ajustando.", "Fixing it in {f}.", "Ajuste pontual em {f}.")
RERUN_SAY = ("Rodando de novo.", "Re-running.", "De novo, pra confirmar.", "Rerun.")


def _turn(b: _Build, group: list[dict[str, Any]], tools: list[dict[str, Any]], files: list[dict[str, Any]],
          filler: int, parallel: int) -> None:
    r = b.r
    if not b.deck:
        b.deck = list(REQUESTS)
        r.shuffle(b.deck)
    scenario, request = b.deck.pop()
    ask = f"{r.choice(OPENERS)} {request} {r.choice(CLOSERS)}".strip()
    ack = ""
    if group and group[0]["carrier"] == "paste":
        e = group[0]
        doc = DOCS[e["doc"]](r)
        own = r.choice(DOC_REACT[e["doc"]])
        if e["kind"] == "instruction":
            own = f"{r.choice(ADOPT_LEAD)} {e['p']['value']}. {own}" if r.random() < 0.6 else f"{own} {r.choice(ADOPT_LEAD)} {e['p']['value']}."
        content = f"{r.choice(DOC_INTRO[e['doc']]).format(c='contadora')}\n\n{doc}\n\n{own}"
        if r.random() < 0.5:
            content += f"\n\n{ask}"
        idx = b.user(content)
        b.pasted.append((idx, doc))
        if e["kind"] == "instruction":
            _fact(b, e, idx)
        ack = r.choice(("Li tudo.", "Ok, li.", "Read it.", "Entendi o recado.", "")) + " "
    elif group:
        lines = [_user_line(r, e) for e in group]
        para = [i for i, e in enumerate(group) if e["kind"] == "instruction" and e["p"]["style"] == "paragraph"]
        if para:
            i = para[0]
            content = _paragraphs(r, lines[i], ask) + "".join(f"\n{x}" for j, x in enumerate(lines) if j != i)
        elif r.random() < 0.4:
            content = " ".join(lines)
        elif r.random() < 0.5:
            content = ask + "\n\n" + "\n".join(lines)
        else:
            content = "\n".join(lines) + "\n\n" + ask
        idx = b.user(content)
        for e in group:
            if e["kind"] == "stale":
                e["of"]["of_stale"] = (e["of"]["p"]["stale"], idx)
                if r.random() < 0.3:
                    ack += f"Ok, {e['of']['p']['stale']}. "
            else:
                _fact(b, e, idx)
                if e["kind"] == "correction" and r.random() < 0.5:
                    ack += f"Corrigido, {e['p']['value']} então. "
        ack = ack or r.choice(ACK) + " "
    else:
        b.user(ask)
    # the units of work: filler steps, planted outputs, the file the agent writes
    units: list[tuple[str, Any]] = [("filler", None) for _ in range(filler)]
    units += [("tool", e) for e in tools] + [("file", e) for e in files]
    r.shuffle(units)
    echo = ""
    first = True
    for kind, e in units:
        pre = (ack if first else "") + echo
        first, echo = False, ""
        if kind == "filler":
            steps = [b.filler_step(scenario)]
            if parallel:
                steps.append(b.filler_step(scenario))
                parallel = 0
            b.call(steps, (pre + r.choice(PREFACE[steps[0][0]])).strip())
        elif kind == "file":
            path = e["p"]["value"]
            body = file_body(r, path, max(600, b.budget() - 400))
            at = b.call([("write_file", {"path": path, "content": body}, f"Wrote {len(body.encode())} bytes to {path}")],
                        (pre + r.choice(PREFACE["write_file"])).strip())
            _fact(b, e, at[0])
        elif e["kind"] in ("identifier", "finding"):
            name, args, out = e["p"]["shown"](r, b.budget())
            at = b.call([(name, args, out)], (pre + r.choice(PREFACE[name])).strip())
            _fact(b, e, at[1])
            if e["kind"] == "identifier":
                echo = r.choice(ECHO_ID).format(v=e["p"]["value"]) + " " if r.random() < 0.6 else ""
            else:
                echo = (r.choice(ECHO_FIND).format(v=e["p"]["value"]) if r.random() < 0.5 else r.choice(FIND_POINT)) + " "
        else:
            p = e["p"]
            at = b.call([(p["tool"], p["args"], p["out"](r, b.budget()))], (pre + r.choice(PREFACE[p["tool"]])).strip())
            echo = (r.choice(ECHO_ERR).format(v=p["value"]) if r.random() < 0.4
                    else r.choice(AFTER_ERR if p["resolve"] else OPEN_ERR)) + "\n\n"
            if p["resolve"]:
                old = r.choice(APP_FRAMES)[2]
                b.call([("edit_file", {"path": p["fix"], "old_string": old, "new_string": old.replace("(", "(  # fix\n", 1)},
                         f"Edited {p['fix']}: 1 replacement ({r.randint(1, 9)} lines changed)")], (echo + r.choice(FIX_SAY).format(f=p["fix"])).strip())
                res = b.call([(p["tool"], p["args"], p["clean"](r, b.budget()))], r.choice(RERUN_SAY))
                e["p"] = dict(p, resolved_at=res[1])
                echo = r.choice(("Agora passou. ", "Passing now. ", "Resolvido. ", "Limpo agora. "))
            _fact(b, e, at[1])
    summary = r.choice(SUMMARY_BY[scenario] if r.random() < 0.8 else SUMMARY).format(n=r.randint(12, 400), h=r.randint(2, 48), k=r.randint(0, 9), ms=r.randint(40, 900))
    b.say(((ack if first else "") + echo + summary).strip())


def _check(b: _Build) -> str | None:
    """Why the session breaks a promise of the contract, or None."""
    texts = [text_of(m) for m in b.msgs]
    joined = "\x00".join(texts)
    starts, at = [], 0
    for t in texts:
        starts.append(at)
        at += len(t) + 1

    def holders(v: str) -> list[int]:
        out, i = [], joined.find(v)
        while i >= 0:
            out.append(bisect_right(starts, i) - 1)
            i = joined.find(v, i + 1)
        return out
    if len({f.value for f in b.facts}) != len(b.facts):
        return "duplicate values"
    n = len(b.msgs)
    for f in b.facts:
        h = holders(f.value)
        if not h or h[0] != f.index or h[-1] > f.index + 8 or f.value in f.query:
            return f"value out of place: {f}"
        if not 0.03 * n <= f.index <= 0.88 * n:
            return f"fact out of range: {f}"
        if f.stale is not None:
            hs = holders(f.stale)
            if not hs or hs[0] != f.stale_index or f.stale in f.value or f.value in f.stale:
                return f"stale out of place: {f}"
            if not all(f.stale_index <= i <= f.stale_index + 12 or f.index <= i <= f.index + 8 for i in hs):
                return f"stale in the filler: {f}"
    return None


def make_session(seed: int, messages: int) -> Session:
    """A shop session of exactly ``messages`` messages with ``per_kind(messages)`` facts of each kind."""
    if messages < SMALLEST:
        raise ValueError(f"gen_shop makes sessions of {SMALLEST} messages or more, not {messages}")
    why = ""
    for attempt in range(40):
        b = _Build(seed, messages, attempt)
        try:
            _run(b, _events(b))
        except _Retry as exc:
            why = str(exc)
            continue
        why = _check(b) or ""
        if not why:
            b.facts.sort(key=lambda f: (f.index, f.kind))
            return Session(messages=b.msgs, facts=b.facts, seed=seed, pasted=b.pasted)
    raise RuntimeError(f"gen_shop could not place its facts for seed {seed}, {messages} messages: {why}")

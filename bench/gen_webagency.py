"""A small Pune web agency's owner-developer and an AI coding agent looking after client sites (fidelity bench).

    from gen_webagency import make_session
    session = make_session(seed=1, messages=400)     # about 600k characters
    session = make_session(seed=1, messages=3000)    # about 4.7M characters

The owner types terse Indian English mixed with Hinglish ("yaar", "bas", "mat karna", "pehle ... phir ...") and
forwards what other people sent: a client's WhatsApp messages (Marathi, Hindi and English), the hosting
provider's ticket reply, Razorpay's integration email, a security audit excerpt, a freelancer's handover notes,
a statement-of-work clause. Those are listed in ``session.pasted``; the imperatives in them are other people's,
never the owner's own rules unless the owner restates one in their own words.

The agent works through long tool loops (``TOOLS``) over a Laravel 11 shop (PHP 8.3, MySQL, Redis, queues,
cron), a WordPress site and a Next.js storefront on one VPS behind nginx and PHP-FPM, a little AWS (S3,
CloudFront, RDS) under Terraform, Razorpay payments and GitHub Actions. Tool outputs carry most of the text:
Laravel logs with stack traces, artisan/composer/Pest/PHPStan runs, nginx and php-fpm logs, systemctl, df, free,
top, certbot, MySQL tables and EXPLAINs, slow-query logs, terraform plans, CI logs, Next.js builds, Lighthouse
reports and the files it reads.

``session.facts`` (``sessiongen.Fact``) are what a compacted context must keep, ``per_kind(messages)`` of each
kind, planted between 3% and 88% of the session: a value first occurs in its own message and nowhere but there
and in the 8 messages after it; a stale value (corrections, revised decisions) only where the owner said it,
the 12 messages after, and beside what replaces it. Same seed and size, same bytes; the global ``random`` state
is never touched.
"""

from __future__ import annotations

import bisect
import json
import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sessiongen import Fact, Message, Session, text_of

KINDS = ("instruction", "correction", "decision", "error", "file", "identifier", "finding", "plan")
TOOLS = ("ssh", "shell", "read_file", "edit_file", "write_file", "artisan", "mysql", "terraform", "gh")
SMALLEST = 60
AFTER_VALUE = 8  # messages after a fact's own that may repeat its value
STALE_REACH = 12  # messages after a stale value's own that may repeat it
CHARS_PER_MESSAGE = 1560  # 400 messages ~ 620k characters, 3000 ~ 4.7M
HIGH = 0.84  # facts are planted before this share of the session


def per_kind(messages: int) -> int:
    """Facts of each kind: 1 at 60 messages, 6 at 400, 12 at 3000, linear in between, 12 beyond."""
    if messages <= SMALLEST:
        return 1
    if messages <= 400:
        return int(1 + (messages - SMALLEST) * 5 / 340 + 0.5)
    if messages <= 3000:
        return int(6 + (messages - 400) * 6 / 2600 + 0.5)
    return 12


# --- the agency's world ------------------------------------------------------------------------------------------

SHOPS = (  # Laravel shops: (name, domain, short, how the owner calls the client)
    ("Kulkarni Jewellers", "kulkarnijewellers.in", "kj", "Kulkarni kaka"),
    ("Joshi Ayurveda", "joshiayurved.com", "ja", "Joshi madam"),
    ("Pawar Electronics", "pawarelectronics.in", "pe", "Pawar saheb"),
    ("Sahyadri Organics", "sahyadriorganics.com", "so", "Bhosale madam"),
    ("Gokhale Book Depot", "gokhalebooks.in", "gb", "Gokhale sir"),
)
WORDPRESS = (
    ("Deshmukh Sweets", "deshmukhsweets.com", "ds", "Deshmukh uncle"),
    ("Shinde Caterers", "shindecaterers.in", "sc", "Shinde bhau"),
    ("Apte Classes", "apteclasses.in", "ac", "Apte sir"),
    ("Bhide Opticians", "bhideopticians.com", "bo", "Bhide kaku"),
)
STOREFRONTS = (
    ("Trendz Apparel", "trendzapparel.in", "tz", "Rohan from Trendz"),
    ("Kale Farms", "kalefarms.co", "kf", "Kale tai"),
    ("Mehta Handlooms", "mehtahandlooms.in", "mh", "Mehta ji"),
    ("Urban Chai Co", "urbanchai.co.in", "uc", "Neha from Urban Chai"),
)
HOSTS = ("pnq-web-01", "agency-vps-2", "blr1-shop-01", "mum-web-03")
PROVIDERS = ("DigitalOcean", "E2E Networks", "Linode", "Hostinger VPS")
CLIENT_NETS = ("49.36", "106.193", "157.32", "223.185", "103.88", "117.99", "42.108", "152.58", "27.97", "182.48")
BOTS = ("Mozilla/5.0 (Linux; Android 13; SM-A146B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/122.0.0.0 Mobile Safari/537.36",
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_3 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.3 Mobile/15E148 Safari/604.1",
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/122.0.0.0 Safari/537.36",
        "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
        "Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)",
        "Mozilla/5.0 (Linux; Android 12; RMX3085) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/121.0.0.0 Mobile Safari/537.36",
        "WhatsApp/2.24.4.76 A", "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)")


@dataclass
class Site:
    kind: str  # shop, wp, next
    name: str
    domain: str
    short: str
    owner: str
    path: str
    db: str
    repo: str


@dataclass
class World:
    rng: random.Random
    shop: Site
    wp: Site
    next: Site
    host: str
    provider: str
    ip: str
    clock: datetime
    bucket: str
    used: set[str] = field(default_factory=set)

    def sites(self) -> tuple[Site, Site, Site]:
        return (self.shop, self.wp, self.next)

    def tick(self, lo: int = 2, hi: int = 40) -> None:
        self.clock += timedelta(minutes=self.rng.randint(lo, hi))
        if self.clock.hour >= 23:  # next morning
            self.clock = (self.clock + timedelta(days=1)).replace(hour=self.rng.randint(8, 10))

    def unique(self, draw: Callable[[], str]) -> str:
        """A drawn string not drawn before in this session."""
        for _ in range(200):
            value = draw()
            if value not in self.used and not any(value in u or u in value for u in self.used if len(u) > 5):
                self.used.add(value)
                return value
        raise RuntimeError("could not draw a new value")


def make_world(rng: random.Random) -> World:
    shop, wp, nxt = rng.choice(SHOPS), rng.choice(WORDPRESS), rng.choice(STOREFRONTS)
    s = Site("shop", *shop, path=f"/var/www/{shop[2]}-shop", db=f"{shop[2]}_shop", repo=f"agency/{shop[2]}-shop")
    w = Site("wp", *wp, path=f"/var/www/{wp[2]}-wp", db=f"{wp[2]}_wp", repo=f"agency/{wp[2]}-wordpress")
    n = Site("next", *nxt, path=f"/var/www/{nxt[2]}-next", db="", repo=f"agency/{nxt[2]}-storefront")
    clock = datetime(2026, rng.randint(2, 4), rng.randint(1, 20), rng.randint(9, 11), rng.randint(0, 59))
    ip = f"139.59.{rng.randint(10, 250)}.{rng.randint(10, 250)}"
    return World(rng, s, w, n, rng.choice(HOSTS), rng.choice(PROVIDERS), ip, clock, bucket=f"{shop[2]}-shop-media")


# --- small random pieces -----------------------------------------------------------------------------------------

B62 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
UPPER = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"


def rid(rng: random.Random, n: int, alphabet: str = B62) -> str:
    return "".join(rng.choice(alphabet) for _ in range(n))


def hexs(rng: random.Random, n: int) -> str:
    return "%0*x" % (n, rng.getrandbits(4 * n))


def uuid(rng: random.Random) -> str:
    h = hexs(rng, 32)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-a{h[17:20]}-{h[20:]}"


def client_ip(rng: random.Random) -> str:
    return f"{rng.choice(CLIENT_NETS)}.{rng.randint(1, 254)}.{rng.randint(1, 254)}"


def ts(t: datetime) -> str:
    return t.strftime("%Y-%m-%d %H:%M:%S")


def pick(rng: random.Random, *options: str) -> str:
    return rng.choice(options)


def maybe(rng: random.Random, text: str, p: float = 0.5) -> str:
    return text if rng.random() < p else ""


def fill(lines: list[str], want: int, more: Callable[[], str]) -> list[str]:
    """Append ``more()`` lines until the lines hold about ``want`` characters."""
    size = sum(len(x) + 1 for x in lines)
    while size < want:
        line = more()
        lines.append(line)
        size += len(line) + 1
    return lines


def table(headers: list[str], rows: list[list[Any]]) -> str:
    """A MySQL client ASCII table."""
    cells = [[str(c) for c in r] for r in rows]
    widths = [max([len(h)] + [len(r[i]) for r in cells]) for i, h in enumerate(headers)]
    bar = "+" + "+".join("-" * (w + 2) for w in widths) + "+"
    out = [bar, "| " + " | ".join(h.ljust(w) for h, w in zip(headers, widths)) + " |", bar]
    for r in cells:
        out.append("| " + " | ".join(c.rjust(w) if c.replace(".", "").isdigit() else c.ljust(w)
                                     for c, w in zip(r, widths)) + " |")
    out.append(bar)
    return "\n".join(out)


# --- logs ------------------------------------------------------------------------------------------------------------

COURIERS = ("Delhivery Surface", "Xpressbees", "Ekart", "Blue Dart Air", "DTDC Lite", "Shadowfax")
PINS = ("411004", "411038", "411057", "411014", "400076", "411001", "413512", "422005", "440010", "560034")
SLUGS = ("gold-chain-22k-18in", "silver-anklet-pair", "ashwagandha-churna-200g", "triphala-tablets-60",
         "usb-c-charger-65w", "led-bulb-9w-pack-4", "organic-jaggery-1kg", "cold-pressed-groundnut-oil-1l",
         "marathi-kadambari-set", "mangalsutra-short-22k", "kumkumadi-tailam-30ml", "trimmer-pro-x2",
         "kaju-katli-500g", "modak-box-21", "linen-kurta-olive-m", "chanderi-dupatta-rust", "assam-ctc-500g")
JOB_CLASSES = ("App\\Jobs\\SendOrderConfirmation", "App\\Jobs\\GenerateInvoicePdf", "App\\Jobs\\CaptureRazorpayPayment",
               "App\\Jobs\\UpdateStockLevels", "App\\Jobs\\SendAbandonedCartMail", "App\\Jobs\\RefreshSitemap",
               "App\\Jobs\\NotifyLowStock", "App\\Listeners\\SendShipmentSms", "App\\Mail\\OrderShipped",
               "Illuminate\\Notifications\\SendQueuedNotifications", "App\\Jobs\\ImportSupplierCsv")
EXCEPTIONS = (
    ("SQLSTATE[40001]: Serialization failure: 1213 Deadlock found when trying to get lock; try restarting transaction "
     "(Connection: mysql, SQL: update `products` set `stock` = `stock` - 1 where `id` = {n})",
     "Illuminate\\Database\\QueryException", "vendor/laravel/framework/src/Illuminate/Database/Connection.php", 829, "db"),
    ("cURL error 28: Operation timed out after 30001 milliseconds with 0 bytes received (see "
     "https://curl.haxx.se/libcurl/c/libcurl-errors.html) for https://apiv2.shiprocket.in/v1/external/courier/assign/awb",
     "GuzzleHttp\\Exception\\ConnectException", "vendor/guzzlehttp/guzzle/src/Handler/CurlFactory.php", 275, "job"),
    ("Attempt to read property \"price\" on null (View: {path}/resources/views/cart/partials/line.blade.php)",
     "Illuminate\\View\\ViewException", "storage/framework/views/{h}.php", 14, "http"),
    ("Invalid signature passed", "Razorpay\\Api\\Errors\\SignatureVerificationError", "vendor/razorpay/razorpay/src/Utility.php",
     46, "http"),
    ("Allowed memory size of 134217728 bytes exhausted (tried to allocate {n} bytes)",
     "Symfony\\Component\\ErrorHandler\\Error\\FatalError", "vendor/laravel/framework/src/Illuminate/Collections/Arr.php",
     627, "job"),
    ("The MAC is invalid.", "Illuminate\\Contracts\\Encryption\\DecryptException",
     "vendor/laravel/framework/src/Illuminate/Encryption/Encrypter.php", 243, "http"),
    ("Connection refused", "RedisException", "vendor/laravel/framework/src/Illuminate/Redis/Connectors/PhpRedisConnector.php",
     178, "job"),
    ("No query results for model [App\\Models\\Product] {n}", "Illuminate\\Database\\Eloquent\\ModelNotFoundException",
     "vendor/laravel/framework/src/Illuminate/Database/Eloquent/Builder.php", 624, "http"),
    ("Call to a member function format() on null", "Error", "app/Http/Controllers/Account/OrderController.php", 57, "http"),
    ("Undefined array key \"gst_rate\"", "ErrorException", "app/Services/Tax/LineTotals.php", 41, "http"),
    ("SQLSTATE[HY000] [2002] Connection timed out (Connection: mysql, SQL: select * from `sessions` where `id` = {h} limit 1)",
     "Illuminate\\Database\\QueryException", "vendor/laravel/framework/src/Illuminate/Database/Connection.php", 829, "http"),
)
HTTP_FRAMES = (
    ("app/Http/Controllers/CheckoutController.php", 142, "App\\Services\\Checkout\\PlaceOrder->handle(Object(App\\Models\\Cart))"),
    ("vendor/laravel/framework/src/Illuminate/Routing/Controller.php", 54,
     "App\\Http\\Controllers\\CheckoutController->store(Object(App\\Http\\Requests\\CheckoutRequest))"),
    ("vendor/laravel/framework/src/Illuminate/Routing/ControllerDispatcher.php", 43, "Illuminate\\Routing\\Controller->callAction('store', Array)"),
    ("vendor/laravel/framework/src/Illuminate/Routing/Route.php", 260,
     "Illuminate\\Routing\\ControllerDispatcher->dispatch(Object(Illuminate\\Routing\\Route), Object(App\\Http\\Controllers\\CheckoutController), 'store')"),
    ("vendor/laravel/framework/src/Illuminate/Routing/Route.php", 206, "Illuminate\\Routing\\Route->runController()"),
    ("vendor/laravel/framework/src/Illuminate/Routing/Router.php", 808, "Illuminate\\Routing\\Route->run()"),
    ("vendor/laravel/framework/src/Illuminate/Pipeline/Pipeline.php", 144,
     "Illuminate\\Routing\\Router->Illuminate\\Routing\\{closure}(Object(Illuminate\\Http\\Request))"),
    ("vendor/laravel/framework/src/Illuminate/Routing/Middleware/SubstituteBindings.php", 50,
     "Illuminate\\Pipeline\\Pipeline->Illuminate\\Pipeline\\{closure}(Object(Illuminate\\Http\\Request))"),
    ("vendor/laravel/framework/src/Illuminate/Pipeline/Pipeline.php", 183,
     "Illuminate\\Routing\\Middleware\\SubstituteBindings->handle(Object(Illuminate\\Http\\Request), Object(Closure))"),
    ("vendor/laravel/framework/src/Illuminate/Foundation/Http/Middleware/VerifyCsrfToken.php", 88,
     "Illuminate\\Pipeline\\Pipeline->Illuminate\\Pipeline\\{closure}(Object(Illuminate\\Http\\Request))"),
    ("vendor/laravel/framework/src/Illuminate/View/Middleware/ShareErrorsFromSession.php", 49,
     "Illuminate\\Pipeline\\Pipeline->Illuminate\\Pipeline\\{closure}(Object(Illuminate\\Http\\Request))"),
    ("vendor/laravel/framework/src/Illuminate/Session/Middleware/StartSession.php", 121,
     "Illuminate\\Session\\Middleware\\StartSession->handleStatefulRequest(Object(Illuminate\\Http\\Request), Object(Illuminate\\Session\\Store), Object(Closure))"),
    ("vendor/laravel/framework/src/Illuminate/Cookie/Middleware/EncryptCookies.php", 75,
     "Illuminate\\Pipeline\\Pipeline->Illuminate\\Pipeline\\{closure}(Object(Illuminate\\Http\\Request))"),
    ("vendor/laravel/framework/src/Illuminate/Foundation/Http/Kernel.php", 200, "Illuminate\\Pipeline\\Pipeline->then(Object(Closure))"),
    ("vendor/laravel/framework/src/Illuminate/Foundation/Http/Kernel.php", 169,
     "Illuminate\\Foundation\\Http\\Kernel->sendRequestThroughRouter(Object(Illuminate\\Http\\Request))"),
    ("public/index.php", 51, "Illuminate\\Foundation\\Http\\Kernel->handle(Object(Illuminate\\Http\\Request))"),
)
JOB_FRAMES = (
    ("vendor/laravel/framework/src/Illuminate/Container/BoundMethod.php", 36, "App\\Jobs\\UpdateStockLevels->handle()"),
    ("vendor/laravel/framework/src/Illuminate/Container/Util.php", 43, "Illuminate\\Container\\BoundMethod::Illuminate\\Container\\{closure}()"),
    ("vendor/laravel/framework/src/Illuminate/Container/BoundMethod.php", 95, "Illuminate\\Container\\Util::unwrapIfClosure(Object(Closure))"),
    ("vendor/laravel/framework/src/Illuminate/Container/Container.php", 690, "Illuminate\\Container\\BoundMethod::call(Object(Illuminate\\Foundation\\Application), Array, Array, NULL)"),
    ("vendor/laravel/framework/src/Illuminate/Bus/Dispatcher.php", 128, "Illuminate\\Container\\Container->call(Array)"),
    ("vendor/laravel/framework/src/Illuminate/Pipeline/Pipeline.php", 170, "Illuminate\\Bus\\Dispatcher->Illuminate\\Bus\\{closure}(Object(App\\Jobs\\UpdateStockLevels))"),
    ("vendor/laravel/framework/src/Illuminate/Queue/CallQueuedHandler.php", 124, "Illuminate\\Pipeline\\Pipeline->then(Object(Closure))"),
    ("vendor/laravel/framework/src/Illuminate/Queue/Jobs/Job.php", 102, "Illuminate\\Queue\\CallQueuedHandler->call(Object(Illuminate\\Queue\\Jobs\\RedisJob), Array)"),
    ("vendor/laravel/framework/src/Illuminate/Queue/Worker.php", 441, "Illuminate\\Queue\\Jobs\\Job->fire()"),
    ("vendor/laravel/framework/src/Illuminate/Queue/Worker.php", 391, "Illuminate\\Queue\\Worker->process('redis', Object(Illuminate\\Queue\\Jobs\\RedisJob), Object(Illuminate\\Queue\\WorkerOptions))"),
    ("vendor/laravel/framework/src/Illuminate/Queue/Worker.php", 177, "Illuminate\\Queue\\Worker->runJob(Object(Illuminate\\Queue\\Jobs\\RedisJob), 'redis', Object(Illuminate\\Queue\\WorkerOptions))"),
    ("vendor/laravel/framework/src/Illuminate/Queue/Console/WorkCommand.php", 137, "Illuminate\\Queue\\Worker->daemon('redis', 'default', Object(Illuminate\\Queue\\WorkerOptions))"),
    ("vendor/symfony/console/Application.php", 1096, "Illuminate\\Console\\Command->run(Object(Symfony\\Component\\Console\\Input\\ArgvInput), Object(Symfony\\Component\\Console\\Output\\ConsoleOutput))"),
    ("artisan", 13, "Illuminate\\Foundation\\Application->handleCommand(Object(Symfony\\Component\\Console\\Input\\ArgvInput))"),
)
DB_FRAMES = (
    ("vendor/laravel/framework/src/Illuminate/Database/Connection.php", 783, "Illuminate\\Database\\Connection->runQueryCallback('update `products...', Array, Object(Closure))"),
    ("vendor/laravel/framework/src/Illuminate/Database/Connection.php", 584, "Illuminate\\Database\\Connection->run('update `products...', Array, Object(Closure))"),
    ("vendor/laravel/framework/src/Illuminate/Database/Query/Builder.php", 3599, "Illuminate\\Database\\Connection->update('update `products...', Array)"),
    ("vendor/laravel/framework/src/Illuminate/Database/Eloquent/Builder.php", 1048, "Illuminate\\Database\\Query\\Builder->update(Array)"),
    ("app/Services/Checkout/PlaceOrder.php", 88, "Illuminate\\Database\\Eloquent\\Builder->decrement('stock')"),
)


def stacktrace(rng: random.Random, site: Site, where: str) -> list[str]:
    frames: list[tuple[str, int, str]] = []
    if where == "db":
        frames += DB_FRAMES[:rng.randint(3, len(DB_FRAMES))]
    chain = JOB_FRAMES if where == "job" else HTTP_FRAMES
    start = rng.randint(0, 3)
    frames += [f for f in chain[start:] if where == "job" or rng.random() < 0.8 or f[0].startswith("public")]
    out = [f"#{i} {site.path}/{f}({line}): {call}" for i, (f, line, call) in enumerate(frames)]
    out.append(f"#{len(frames)} {{main}}")
    return out


def log_error_block(rng: random.Random, site: Site, t: datetime, env: str = "production") -> list[str]:
    text, cls, file, line, where = rng.choice(EXCEPTIONS)
    text = text.format(n=rng.randint(1000, 99999), path=site.path, h=hexs(rng, 40))
    file = file.format(h=hexs(rng, 40))
    ctx = maybe(rng, f'"userId":{rng.randint(2, 9000)},', 0.6)
    head = (f'[{ts(t)}] {env}.ERROR: {text} {{{ctx}"exception":"[object] ({cls}(code: {rng.choice((0, 0, 23000, 28))}): '
            f'{text} at {site.path}/{file}:{line})')
    return [head, "[stacktrace]", *stacktrace(rng, site, where), '"} ']


def info_line(rng: random.Random, site: Site, t: datetime, env: str = "production") -> str:
    s = site.short.upper()
    r = rng.randrange(12)
    if r == 0:
        body = (f'Razorpay webhook received {{"event":"{pick(rng, "payment.captured", "payment.authorized", "order.paid", "refund.processed")}",'
                f'"payment_id":"pay_{rid(rng, 14)}","order_id":"order_{rid(rng, 14)}"}}')
    elif r == 1:
        body = f'Order placed {{"order":"{s}-{rng.randint(20000, 89999)}","total":{rng.randint(299, 84000)},"items":{rng.randint(1, 6)}}}'
    elif r == 2:
        body = (f'Shipment created {{"order":"{s}-{rng.randint(20000, 89999)}","awb":"{rng.randint(10**12, 10**13 - 1)}",'
                f'"courier":"{rng.choice(COURIERS)}","pincode":"{rng.choice(PINS)}"}}')
    elif r == 3:
        body = f'Scheduled command [{pick(rng, "inventory:sync", "sitemap:generate", "orders:expire-pending", "backup:run")}] finished {{"ms":{rng.randint(80, 90000)}}}'
    elif r == 4:
        body = f'Invoice PDF generated {{"invoice":"{s}/25-26/{rng.randint(100, 9999):05d}","ms":{rng.randint(300, 4000)}}}'
    elif r == 5:
        body = f'Cart merged after login {{"user_id":{rng.randint(10, 9000)},"items":{rng.randint(1, 9)}}}'
    elif r == 6:
        body = f'Stock low {{"sku":"{rid(rng, 3, UPPER)}-{rng.randint(100, 999)}","qty":{rng.randint(0, 4)}}}'
    elif r == 7:
        body = f'Coupon applied {{"code":"{pick(rng, "WELCOME10", "FEST15", "FREESHIP", "GUDIPADWA", "SUMMER12")}","discount":{rng.randint(30, 900)}}}'
    elif r == 8:
        body = f'OTP sent {{"mobile":"9{rng.randint(10, 99)}XXXXX{rng.randint(10, 99)}","attempt":{rng.randint(1, 3)}}}'
    elif r == 9:
        body = f'Pincode serviceability checked {{"pincode":"{rng.choice(PINS)}","cod":{pick(rng, "true", "false")},"ms":{rng.randint(90, 2400)}}}'
    elif r == 10:
        body = f'Refund initiated {{"order":"{s}-{rng.randint(20000, 89999)}","amount":{rng.randint(199, 20000)}}}'
    else:
        body = f'Sitemap written {{"urls":{rng.randint(400, 9000)},"path":"public/sitemap.xml"}}'
    level = "INFO" if rng.random() < 0.85 else "WARNING"
    if level == "WARNING":
        body = pick(rng, f'Slow request {{"path":"/checkout","ms":{rng.randint(2500, 9000)}}}',
                    f'Razorpay webhook retry {{"attempt":{rng.randint(2, 5)}}}',
                    f'Shiprocket token refreshed early {{"expires_in":{rng.randint(10, 900)}}}',
                    f'Queue backlog {{"queue":"default","size":{rng.randint(50, 2000)}}}')
    return f"[{ts(t)}] {env}.{level}: {body}"


def laravel_log(rng: random.Random, w: World, site: Site, want: int, planted: list[str] | None = None,
                errors: float = 0.12, env: str = "production") -> str:
    t = w.clock - timedelta(minutes=rng.randint(20, 600))
    lines: list[str] = []
    size = 0
    while size < want:
        t += timedelta(seconds=rng.randint(1, 200))
        block = log_error_block(rng, site, t, env) if rng.random() < errors else [info_line(rng, site, t, env)]
        lines += block
        size += sum(len(x) + 1 for x in block)
    if planted:
        at = rng.randint(len(lines) // 3, max(len(lines) // 3, len(lines) - 1))
        while at < len(lines) and not lines[at].startswith("["):
            at += 1
        lines[at:at] = planted
    return "\n".join(lines)


def nginx_time(t: datetime) -> str:
    return t.strftime("%d/%b/%Y:%H:%M:%S +0530")


def site_path(rng: random.Random, site: Site) -> str:
    if site.kind == "shop":
        return pick(rng, "/", f"/product/{rng.choice(SLUGS)}", f"/category/{pick(rng, 'gold', 'silver', 'offers', 'new-arrivals', 'wellness')}",
                    "/cart", "/checkout", f"/api/pincode/{rng.choice(PINS)}", f"/build/assets/app-{rid(rng, 8)}.js",
                    f"/storage/products/{rng.randint(100, 9999)}-{rng.choice((320, 640, 1024))}.webp", "/account/orders",
                    f"/search?q={pick(rng, 'chain', 'ring', 'oil', 'churna', 'charger', 'jhumka')}", "/livewire/update", "/login")
    if site.kind == "wp":
        return pick(rng, "/", "/wp-admin/admin-ajax.php", "/wp-login.php", "/xmlrpc.php", f"/product/{rng.choice(SLUGS)}/",
                    f"/wp-content/uploads/2025/{rng.randint(1, 12):02d}/IMG_{rng.randint(1000, 9999)}-scaled.jpg",
                    "/wp-json/wc/store/v1/cart", f"/?s={pick(rng, 'modak', 'kaju', 'batch', 'frame')}", "/feed/", "/my-account/")
    return pick(rng, "/", f"/_next/static/chunks/{hexs(rng, 16)}.js", f"/_next/image?url=%2Fimages%2F{rid(rng, 6)}.jpg&w=640&q=75",
                f"/products/{rng.choice(SLUGS)}", f"/collections/{pick(rng, 'kurta', 'tea', 'gifting', 'sale')}",
                "/api/cart", f"/_next/data/{rid(rng, 21)}/index.json")


def access_line(rng: random.Random, site: Site, t: datetime, status: int | None = None) -> str:
    path = site_path(rng, site)
    method = "POST" if path in ("/checkout", "/livewire/update", "/wp-admin/admin-ajax.php", "/api/cart", "/xmlrpc.php") else "GET"
    code = status or rng.choices((200, 200, 200, 304, 301, 302, 404, 499, 502, 504), (50, 20, 10, 6, 3, 3, 4, 1, 1, 1))[0]
    rt = rng.random() * (9 if code in (502, 504) else 1.4)
    up = "-" if path.startswith(("/build", "/storage", "/_next/static", "/wp-content")) else f"{rt * 0.97:.3f}"
    ref = pick(rng, "-", f"https://{site.domain}/", "https://www.google.com/", f"https://{site.domain}/cart", "https://l.instagram.com/")
    return (f'{client_ip(rng)} - - [{nginx_time(t)}] "{method} {path} HTTP/2.0" {code} {rng.randint(0, 90000) if code != 304 else 0} '
            f'"{ref}" "{rng.choice(BOTS)}" rt={rt:.3f} uct={0 if up == "-" else 0.001:.3f} urt={up}')


def nginx_access(rng: random.Random, w: World, site: Site, want: int, burst: int | None = None) -> str:
    t = w.clock - timedelta(minutes=rng.randint(5, 90))
    lines: list[str] = []

    def more() -> str:
        nonlocal t
        t += timedelta(seconds=rng.randint(0, 9))
        return access_line(rng, site, t, burst if burst and rng.random() < 0.3 else None)
    return "\n".join(fill(lines, want, more))


def nginx_error_line(rng: random.Random, w: World, site: Site, t: datetime) -> str:
    head = f"{t.strftime('%Y/%m/%d %H:%M:%S')} [{{lvl}}] {rng.randint(700, 3000)}#{rng.randint(700, 3000)}: *{rng.randint(10000, 9999999)} "
    ip, host = client_ip(rng), site.domain
    sock = "fastcgi://unix:/run/php/php8.3-fpm.sock:" if site.kind != "next" else "http://127.0.0.1:3000"
    r = rng.randrange(7)
    req = f'"{pick(rng, "GET", "POST")} {site_path(rng, site)} HTTP/2.0"'
    if r == 0:
        body = (f'upstream timed out (110: Connection timed out) while reading response header from upstream, client: {ip}, '
                f'server: {host}, request: {req}, upstream: "{sock}", host: "{host}"')
        lvl = "error"
    elif r == 1:
        body = (f'FastCGI sent in stderr: "PHP message: PHP Warning:  Undefined array key "{pick(rng, "gst", "hsn", "weight", "variant_id")}" in '
                f'{site.path}/app/{pick(rng, "Services/Tax/LineTotals.php", "Http/Controllers/CartController.php", "Support/Pincode.php")} on line '
                f'{rng.randint(20, 200)}" while reading response header from upstream, client: {ip}, server: {host}, request: {req}, '
                f'upstream: "{sock}", host: "{host}"')
        lvl = "error"
    elif r == 2:
        body = (f'open() "{site.path}/public/{pick(rng, "apple-touch-icon.png", "wp-login.php", ".env", "favicon-32x32.png", "ads.txt")}" failed '
                f'(2: No such file or directory), client: {ip}, server: {host}, request: {req}, host: "{host}"')
        lvl = "error"
    elif r == 3:
        body = (f'an upstream response is buffered to a temporary file /var/cache/nginx/fastcgi_temp/{rng.randint(1, 9)}/'
                f'{rng.randint(10, 99)}/00000{rng.randint(10000, 99999)} while reading upstream, client: {ip}, server: {host}, request: {req}')
        lvl = "warn"
    elif r == 4:
        body = (f'limiting requests, excess: {rng.randint(5, 40)}.{rng.randint(100, 999)} by zone "login", client: {ip}, '
                f'server: {host}, request: "POST /login HTTP/2.0", host: "{host}"')
        lvl = "error"
    elif r == 5:
        body = (f'connect() to unix:/run/php/php8.3-fpm.sock failed (11: Resource temporarily unavailable) while connecting to upstream, '
                f'client: {ip}, server: {host}, request: {req}, upstream: "{sock}", host: "{host}"')
        lvl = "crit"
    else:
        body = f'client intended to send too large body: {rng.randint(2, 40) * 1048576 + rng.randint(1, 9999)} bytes, client: {ip}, server: {host}, request: {req}'
        lvl = "error"
    return head.replace("{lvl}", lvl) + body


def nginx_errors(rng: random.Random, w: World, site: Site, want: int, planted: str | None = None) -> str:
    t = w.clock - timedelta(hours=rng.randint(1, 8))
    lines: list[str] = []

    def more() -> str:
        nonlocal t
        t += timedelta(seconds=rng.randint(3, 400))
        return nginx_error_line(rng, w, site, t)
    fill(lines, want, more)
    if planted:
        lines.insert(rng.randint(len(lines) // 2, len(lines)), planted)
    return "\n".join(lines)


SLOW_CALLS = (
    ("curl_exec()", "vendor/guzzlehttp/guzzle/src/Handler/CurlHandler.php", 44),
    ("PDOStatement->execute()", "vendor/laravel/framework/src/Illuminate/Database/Connection.php", 423),
    ("file_get_contents()", "app/Support/Pincode.php", 31),
    ("imagecopyresampled()", "vendor/intervention/image/src/Drivers/Gd/Modifiers/ResizeModifier.php", 52),
    ("Redis->get()", "vendor/laravel/framework/src/Illuminate/Redis/Connections/Connection.php", 116),
    ("mysqli_query()", "wp-includes/class-wpdb.php", 2351),
    ("preg_match_all()", "wp-content/plugins/elementor/includes/frontend.php", 1138),
)


def fpm_slowlog(rng: random.Random, w: World, site: Site, want: int) -> str:
    t = w.clock - timedelta(hours=rng.randint(1, 6))
    lines: list[str] = []

    def more() -> str:
        nonlocal t
        t += timedelta(seconds=rng.randint(20, 900))
        call, file, line = rng.choice(SLOW_CALLS)
        frames = [f"[0x00007f{hexs(rng, 10)}] {call} {site.path}/{file}:{line}"]
        for _ in range(rng.randint(4, 11)):
            f, ln, c = rng.choice(HTTP_FRAMES + JOB_FRAMES)
            frames.append(f"[0x00007f{hexs(rng, 10)}] {c.split('->')[-1].split('(')[0]}() {site.path}/{f}:{ln}")
        return "\n".join([f"\n[{t.strftime('%d-%b-%Y %H:%M:%S')}]  [pool {site.short}] pid {rng.randint(1000, 60000)}",
                          f"script_filename = {site.path}/public/index.php", *frames])
    return "\n".join(fill(lines, want, more)).lstrip("\n")


SERVICES = {
    "nginx": ("nginx.service - A high performance web server and a reverse proxy server", "/lib/systemd/system/nginx.service",
              "nginx: worker process"),
    "php8.3-fpm": ("php8.3-fpm.service - The PHP 8.3 FastCGI Process Manager", "/lib/systemd/system/php8.3-fpm.service",
                   "php-fpm: pool www"),
    "mysql": ("mysql.service - MySQL Community Server", "/lib/systemd/system/mysql.service", "/usr/sbin/mysqld"),
    "redis-server": ("redis-server.service - Advanced key-value store", "/lib/systemd/system/redis-server.service",
                     "/usr/bin/redis-server 127.0.0.1:6379"),
    "supervisor": ("supervisor.service - Supervisor process control system for UNIX", "/lib/systemd/system/supervisor.service",
                   "php /var/www/shop/artisan queue:work redis --sleep=3 --tries=3 --max-time=3600"),
    "cron": ("cron.service - Regular background program processing daemon", "/lib/systemd/system/cron.service", "/usr/sbin/cron -f -P"),
}


def systemctl_status(rng: random.Random, w: World, unit: str, failed: bool = False) -> str:
    desc, path, proc = SERVICES[unit]
    since = w.clock - timedelta(hours=rng.randint(2, 300), minutes=rng.randint(0, 59))
    pid = rng.randint(600, 40000)
    state = ("failed (Result: exit-code)" if failed else "active (running)")
    out = [f"● {desc}", f"     Loaded: loaded ({path}; enabled; vendor preset: enabled)",
           f"     Active: {state} since {since.strftime('%a %Y-%m-%d %H:%M:%S')} IST; {rng.randint(1, 11)}h ago",
           f"   Main PID: {pid} ({unit.split('.')[0]})"]
    if unit == "php8.3-fpm":
        out.append(f'     Status: "Processes active: {rng.randint(0, 20)}, idle: {rng.randint(0, 9)}, Requests: {rng.randint(1000, 99999)}, '
                   f'slow: {rng.randint(0, 80)}, Traffic: {rng.random() * 6:.1f}req/sec"')
    out += [f"      Tasks: {rng.randint(3, 60)} (limit: {rng.choice((4558, 9378, 18990))})",
            f"     Memory: {rng.randint(12, 1900)}.{rng.randint(0, 9)}M", f"        CPU: {rng.randint(1, 59)}min {rng.random() * 60:.3f}s",
            f"     CGroup: /system.slice/{unit}.service", f"             ├─{pid} \"{proc.replace('/var/www/shop', w.shop.path)} master\""]
    for _ in range(rng.randint(2, 9)):
        out.append(f"             ├─{rng.randint(600, 60000)} \"{proc.replace('/var/www/shop', w.shop.path)}\"")
    out.append("")
    t = since
    for _ in range(rng.randint(3, 10)):
        t += timedelta(minutes=rng.randint(1, 300))
        msg = pick(rng, f"Started {desc.split(' - ')[1]}.", f"Reloading {desc.split(' - ')[1]}...", f"Reloaded {desc.split(' - ')[1]}.",
                   f"{unit}.service: Consumed {rng.randint(1, 40)}min {rng.randint(1, 59)}.{rng.randint(100, 999)}s CPU time.")
        if unit == "php8.3-fpm" and rng.random() < 0.4:
            msg = f"[{t.strftime('%d-%b-%Y %H:%M:%S')}] WARNING: [pool www] seems busy (you may need to increase pm.start_servers, or pm.min/max_spare_servers), spawning {rng.choice((8, 16, 32))} children, there are {rng.randint(0, 3)} idle, and {rng.randint(10, 40)} total children"
        out.append(f"{t.strftime('%b %d %H:%M:%S')} {w.host} {pick(rng, 'systemd[1]', unit + '[' + str(pid) + ']')}: {msg}")
    if failed:
        out.append(f"{t.strftime('%b %d %H:%M:%S')} {w.host} systemd[1]: {unit}.service: Failed with result 'exit-code'.")
    return "\n".join(out)


def df_h(rng: random.Random, w: World) -> str:
    root_size = rng.choice((50, 80, 100, 160))
    used = rng.randint(int(root_size * 0.4), int(root_size * 0.93))
    rows = [("Filesystem", "Size", "Used", "Avail", "Use%", "Mounted on"), ("tmpfs", "392M", f"{rng.randint(1, 3)}.{rng.randint(0, 9)}M", "389M", "1%", "/run"),
            ("/dev/vda1", f"{root_size}G", f"{used}G", f"{root_size - used - 1}G", f"{used * 100 // root_size}%", "/"),
            ("tmpfs", "2.0G", "0", "2.0G", "0%", "/dev/shm"), ("tmpfs", "5.0M", "0", "5.0M", "0%", "/run/lock"),
            ("/dev/vda15", "105M", "6.1M", "99M", "6%", "/boot/efi"),
            ("/dev/sda", "99G", f"{rng.randint(10, 90)}G", f"{rng.randint(5, 80)}G", f"{rng.randint(10, 92)}%", "/mnt/backups"),
            ("tmpfs", "392M", "4.0K", "392M", "1%", "/run/user/1000")]
    return "\n".join(f"{a:<15} {b:>5} {c:>5} {d:>5} {e:>4} {f}" for a, b, c, d, e, f in rows)


def free_m(rng: random.Random) -> str:
    total = rng.choice((3911, 7941, 15995))
    used = rng.randint(total // 3, total - 300)
    cache = rng.randint(200, total - used)
    return ("               total        used        free      shared  buff/cache   available\n"
            f"Mem:        {total:>8}    {used:>8}    {total - used - cache:>8}    {rng.randint(20, 300):>8}    {cache:>8}    {total - used:>8}\n"
            f"Swap:        {2047:>8}    {rng.randint(0, 1800):>8}    {rng.randint(100, 2047):>8}")


def top_snapshot(rng: random.Random, w: World, want: int) -> str:
    total = rng.choice((3911.4, 7941.2, 15995.0))
    out = [f"top - {w.clock.strftime('%H:%M:%S')} up {rng.randint(3, 200)} days, {rng.randint(0, 23)}:{rng.randint(10, 59)},  "
           f"{rng.randint(1, 3)} users,  load average: {rng.random() * 8:.2f}, {rng.random() * 6:.2f}, {rng.random() * 4:.2f}",
           f"Tasks: {rng.randint(140, 260)} total,   {rng.randint(1, 9)} running, {rng.randint(130, 250)} sleeping,   0 stopped,   {rng.randint(0, 3)} zombie",
           f"%Cpu(s): {rng.random() * 90:.1f} us,  {rng.random() * 10:.1f} sy,  0.0 ni, {rng.random() * 60:.1f} id,  {rng.random() * 20:.1f} wa,  0.0 hi,  0.3 si,  {rng.random() * 3:.1f} st",
           f"MiB Mem :   {total:.1f} total,    {rng.random() * 400:.1f} free,   {total * rng.uniform(0.4, 0.9):.1f} used,    {rng.random() * 1200:.1f} buff/cache",
           f"MiB Swap:   2048.0 total,   {rng.random() * 2048:.1f} free,    {rng.random() * 900:.1f} used.   {rng.random() * 900:.1f} avail Mem",
           "", "    PID USER      PR  NI    VIRT    RES    SHR S  %CPU  %MEM     TIME+ COMMAND"]
    procs = (("www-data", "php-fpm8.3"), ("mysql", "mysqld"), ("redis", "redis-server"), ("www-data", "nginx"), ("deploy", "node"),
             ("deploy", "php"), ("root", "supervisord"), ("root", "systemd-journal"), ("deploy", "PM2 v5.3.1: God"), ("root", "sshd"))

    def more() -> str:
        user, cmd = rng.choice(procs)
        return (f"{rng.randint(300, 60000):>7} {user:<9} 20   0 {rng.randint(20000, 2900000):>7} {rng.randint(5000, 900000):>6} "
                f"{rng.randint(2000, 40000):>6} {pick(rng, 'S', 'S', 'R', 'D')} {rng.random() * 99:>5.1f} {rng.random() * 30:>5.1f} "
                f"{rng.randint(0, 900)}:{rng.randint(10, 59)}.{rng.randint(10, 99)} {cmd}")
    return "\n".join(fill(out, want, more))


def certbot(rng: random.Random, w: World, domains: list[str], dry: bool = True) -> str:
    out = ["Saving debug log to /var/log/letsencrypt/letsencrypt.log", ""]
    if dry:
        out += ["- - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - -"]
        for d in domains:
            out += [f"Processing /etc/letsencrypt/renewal/{d}.conf", "- - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - -",
                    f"Account registered.\nSimulating renewal of an existing certificate for {d} and www.{d}", ""]
        out += ["- - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - -",
                "Congratulations, all simulated renewals succeeded:"]
        out += [f"  /etc/letsencrypt/live/{d}/fullchain.pem (success)" for d in domains]
    else:
        out += ["Found the following certs:"]
        for d in domains:
            exp = w.clock + timedelta(days=rng.randint(14, 85), hours=rng.randint(0, 23))
            out += [f"  Certificate Name: {d}", "    Serial Number: " + hexs(rng, 36), "    Key Type: ECDSA",
                    f"    Domains: {d} www.{d}", f"    Expiry Date: {exp.strftime('%Y-%m-%d %H:%M:%S')}+00:00 (VALID: {(exp - w.clock).days} days)",
                    f"    Certificate Path: /etc/letsencrypt/live/{d}/fullchain.pem", f"    Private Key Path: /etc/letsencrypt/live/{d}/privkey.pem"]
    return "\n".join(out)


def crontab(rng: random.Random, w: World) -> str:
    s = w.shop
    return "\n".join([
        "# m h  dom mon dow   command", f"* * * * * cd {s.path} && php artisan schedule:run >> /dev/null 2>&1",
        f"{rng.choice((0, 15, 45))} 2 * * * /home/deploy/bin/mysql-dump.sh {s.db} >> /var/log/mysql-dump.log 2>&1",
        f"*/{rng.choice((5, 15))} * * * * cd {w.wp.path} && wp cron event run --due-now --quiet",
        "0 */6 * * * /usr/bin/certbot renew --quiet --deploy-hook 'systemctl reload nginx'",
        f"{rng.choice((0, 15, 45))} 4 * * 0 find {s.path}/storage/logs -name '*.log' -mtime +14 -delete",
        "@reboot /usr/bin/pm2 resurrect"])


def redis_info(rng: random.Random, want: int) -> str:
    mem = rng.randint(40, 900)
    out = ["# Memory", f"used_memory:{mem * 1048576 + rng.randint(0, 999999)}", f"used_memory_human:{mem}.{rng.randint(10, 99)}M",
           f"used_memory_rss:{mem * 1100000}", f"used_memory_rss_human:{mem + rng.randint(5, 80)}.{rng.randint(10, 99)}M",
           "used_memory_peak_perc:" + f"{rng.uniform(60, 99):.2f}%", f"maxmemory:{rng.choice((0, 536870912, 1073741824))}",
           "maxmemory_policy:allkeys-lru", f"mem_fragmentation_ratio:{rng.uniform(0.9, 2.4):.2f}", "", "# Stats",
           f"total_connections_received:{rng.randint(1000, 900000)}", f"total_commands_processed:{rng.randint(100000, 90000000)}",
           f"keyspace_hits:{rng.randint(10000, 9000000)}", f"keyspace_misses:{rng.randint(1000, 900000)}", f"evicted_keys:{rng.randint(0, 4000)}",
           "", "# Keyspace"]
    for db in range(rng.randint(1, 4)):
        out.append(f"db{db}:keys={rng.randint(10, 90000)},expires={rng.randint(0, 9000)},avg_ttl={rng.randint(1000, 9000000)}")

    def more() -> str:
        return f"{pick(rng, 'laravel_database_', 'laravel_cache_:', 'laravel_horizon:', 'wp_')}{rid(rng, 20)}  ({pick(rng, 'string', 'hash', 'list', 'zset')}) ttl={rng.randint(-1, 86400)}"
    if want > 1500:
        out += ["", "# redis-cli --scan --pattern '*' | head"]
        fill(out, want, more)
    return "\n".join(out)


# --- MySQL ---------------------------------------------------------------------------------------------------------

SLOW_SQL = (
    "SELECT o.*, c.name, c.phone FROM orders o JOIN customers c ON c.id = o.customer_id WHERE o.status IN ('pending','processing') "
    "AND o.created_at > '{d}' ORDER BY o.created_at DESC LIMIT 50 OFFSET {n};",
    "SELECT p.* FROM products p WHERE p.is_active = 1 AND (p.name LIKE '%{q}%' OR p.description LIKE '%{q}%') ORDER BY p.sort_order LIMIT 24;",
    "SELECT SUM(oi.qty * oi.price) AS revenue, DATE(o.created_at) d FROM order_items oi JOIN orders o ON o.id = oi.order_id "
    "WHERE o.created_at BETWEEN '{d}' AND NOW() GROUP BY d;",
    "UPDATE products SET stock = stock - 1 WHERE id = {n};",
    "SELECT option_value FROM wp_options WHERE autoload = 'yes';",
    "SELECT * FROM `sessions` WHERE `last_activity` < {n};",
    "DELETE FROM `jobs` WHERE `reserved_at` IS NOT NULL AND `attempts` > 3;",
)


def slow_query_entry(rng: random.Random, w: World, t: datetime, qtime: str | None = None) -> str:
    sql = rng.choice(SLOW_SQL).format(d=(w.clock - timedelta(days=rng.randint(1, 60))).strftime("%Y-%m-%d"),
                                      n=rng.randint(0, 5000), q=pick(rng, "chain", "oil", "kurta", "gift", "churna"))
    q = qtime or f"Query_time: {rng.randint(1, 9)}.{rng.randint(0, 999999):06d}"
    return "\n".join([f"# Time: {t.strftime('%Y-%m-%dT%H:%M:%S')}.{rng.randint(0, 999999):06d}Z",
                      f"# User@Host: {w.shop.short}_app[{w.shop.short}_app] @ localhost []  Id: {rng.randint(1000, 900000)}",
                      f"# {q}  Lock_time: 0.{rng.randint(0, 9999):06d} Rows_sent: {rng.randint(0, 500)}  Rows_examined: {rng.randint(1000, 2000000)}",
                      f"use {w.shop.db};" if rng.random() < 0.3 else f"SET timestamp={int(t.timestamp())};", sql])


def slow_log(rng: random.Random, w: World, want: int, planted: str | None = None) -> str:
    t = w.clock - timedelta(hours=rng.randint(2, 20))
    entries: list[str] = []

    def more() -> str:
        nonlocal t
        t += timedelta(seconds=rng.randint(10, 2000))
        return slow_query_entry(rng, w, t)
    fill(entries, want, more)
    if planted:
        t += timedelta(seconds=rng.randint(10, 600))
        entries.insert(rng.randint(1, len(entries)), slow_query_entry(rng, w, t, planted))
    return "\n".join(entries)


def orders_table(rng: random.Random, w: World, want: int, extra: list[str] | None = None) -> str:
    s = w.shop.short.upper()
    rows: list[list[Any]] = []
    size = 0
    t = w.clock - timedelta(days=rng.randint(0, 3))
    while size < want:
        t += timedelta(minutes=rng.randint(1, 50))
        row = [rng.randint(20000, 89999), f"{s}-{rng.randint(20000, 89999)}", pick(rng, "pending", "paid", "paid", "shipped", "cancelled", "refunded"),
               f"{rng.randint(199, 90000)}.00", f"pay_{rid(rng, 14)}" if rng.random() < 0.8 else "NULL", ts(t)]
        rows.append(row)
        size += 110
    if extra:
        rows.insert(rng.randint(0, len(rows)), extra)
    out = table(["id", "number", "status", "grand_total", "razorpay_payment_id", "created_at"], rows)
    return out + f"\n{len(rows)} rows in set ({rng.random() * 2:.2f} sec)"


def explain(rng: random.Random, rows_value: str | None = None) -> str:
    rows = [[1, "SIMPLE", "o", "NULL", pick(rng, "ALL", "range", "ref"), "idx_orders_status,idx_orders_created", pick(rng, "NULL", "idx_orders_created"),
             pick(rng, "NULL", "6"), "NULL", rows_value or rng.randint(200, 900000), f"{rng.choice((10.0, 33.33, 100.0)):.2f}",
             pick(rng, "Using where; Using filesort", "Using index condition", "Using where")],
            [1, "SIMPLE", "c", "NULL", "eq_ref", "PRIMARY", "PRIMARY", "8", f"{pick(rng, 'shop', 'kj_shop')}.o.customer_id", 1, "100.00", "NULL"]]
    return table(["id", "select_type", "table", "partitions", "type", "possible_keys", "key", "key_len", "ref", "rows", "filtered", "Extra"],
                 rows) + f"\n2 rows in set, 1 warning ({rng.random() / 10:.2f} sec)"


def processlist(rng: random.Random, w: World, want: int) -> str:
    rows: list[list[Any]] = []
    size = 0
    while size < want:
        cmd = pick(rng, "Sleep", "Sleep", "Query", "Query", "Binlog Dump")
        rows.append([rng.randint(100, 900000), pick(rng, f"{w.shop.short}_app", f"{w.wp.short}_wp", "root", "event_scheduler"), "localhost",
                     pick(rng, w.shop.db, w.wp.db, "NULL"), cmd, rng.randint(0, 900),
                     pick(rng, "", "Sending data", "updating", "Waiting for table metadata lock", "executing"),
                     "NULL" if cmd == "Sleep" else rng.choice(SLOW_SQL)[:60].format(d="x", n=1, q="x")])
        size += 150
    return table(["Id", "User", "Host", "db", "Command", "Time", "State", "Info"], rows) + f"\n{len(rows)} rows in set (0.00 sec)"


def innodb_deadlock(rng: random.Random, w: World) -> str:
    t = w.clock - timedelta(minutes=rng.randint(5, 600))
    out = ["*************************** 1. row ***************************", "  Type: InnoDB", "  Name: ", "Status: ",
           "=====================================", f"{t.strftime('%Y-%m-%d %H:%M:%S')} 0x7f{hexs(rng, 10)} INNODB MONITOR OUTPUT",
           "=====================================", "------------------------", "LATEST DETECTED DEADLOCK", "------------------------",
           f"{t.strftime('%Y-%m-%d %H:%M:%S')} 140{rng.randint(10**9, 10**10)}"]
    for k in (1, 2):
        out += [f"*** ({k}) TRANSACTION:", f"TRANSACTION {rng.randint(10**6, 10**8)}, ACTIVE {rng.randint(0, 9)} sec starting index read",
                "mysql tables in use 1, locked 1", f"LOCK WAIT {rng.randint(2, 9)} lock struct(s), heap size 1128, {rng.randint(1, 9)} row lock(s)",
                f"MySQL thread id {rng.randint(1000, 90000)}, OS thread handle 140{rng.randint(10**9, 10**10)}, query id {rng.randint(10**5, 10**7)} localhost {w.shop.short}_app updating",
                f"UPDATE products SET stock = stock - 1 WHERE id = {rng.randint(100, 9000)}", "",
                f"*** ({k}) HOLDS THE LOCK(S):", f"RECORD LOCKS space id {rng.randint(10, 900)} page no {rng.randint(3, 900)} n bits 160 index PRIMARY of table `{w.shop.db}`.`products` trx id {rng.randint(10**6, 10**8)} lock_mode X locks rec but not gap", ""]
    out += ["*** WE ROLL BACK TRANSACTION (2)", "------------", "TRANSACTIONS", "------------",
            f"Trx id counter {rng.randint(10**6, 10**8)}", f"History list length {rng.randint(0, 4000)}"]
    return "\n".join(out)


# --- Terraform, CI, builds -------------------------------------------------------------------------------------------

TF_RESOURCES = (
    ("aws_s3_bucket", "media", {"bucket": "\"{b}\"", "force_destroy": "false", "tags": "{\n          + \"Client\" = \"{c}\"\n        }"}),
    ("aws_s3_bucket_lifecycle_configuration", "backups", {"bucket": "\"{b}-backups\"", "id": "(known after apply)"}),
    ("aws_cloudfront_distribution", "media_cdn", {"enabled": "true", "price_class": "\"PriceClass_200\"", "default_root_object": "\"\"",
                                                  "domain_name": "(known after apply)", "etag": "(known after apply)"}),
    ("aws_db_instance", "shop", {"engine": "\"mysql\"", "engine_version": "\"8.0.35\"", "instance_class": "\"db.t4g.micro\"",
                                 "allocated_storage": "20", "backup_retention_period": "7", "multi_az": "false"}),
    ("aws_iam_user_policy", "media_uploader", {"name": "\"media-uploader\"", "user": "\"{c}-app\"", "policy": "jsonencode(...)"}),
    ("aws_s3_bucket_public_access_block", "media", {"block_public_acls": "true", "block_public_policy": "true", "restrict_public_buckets": "true"}),
    ("aws_cloudfront_origin_access_control", "media", {"name": "\"{c}-media-oac\"", "origin_access_control_origin_type": "\"s3\"",
                                                       "signing_behavior": "\"always\"", "signing_protocol": "\"sigv4\""}),
    ("aws_security_group_rule", "rds_from_vps", {"from_port": "3306", "to_port": "3306", "protocol": "\"tcp\"", "cidr_blocks": "[\n          + \"{ip}/32\",\n        ]"}),
)


def tf_block(rng: random.Random, w: World, action: str) -> str:
    kind, name, attrs = rng.choice(TF_RESOURCES)
    sign = {"create": "+", "update": "~", "destroy": "-", "replace": "-/+"}[action]
    verb = {"create": "will be created", "update": "will be updated in-place", "destroy": "will be destroyed",
            "replace": "must be replaced"}[action]
    out = [f"  # {kind}.{name} {verb}", f"  {sign} resource \"{kind}\" \"{name}\" {{"]
    for k, v in attrs.items():
        v = v.replace("{b}", w.bucket).replace("{c}", w.shop.short).replace("{ip}", w.ip)
        if action == "update" and rng.random() < 0.4:
            out.append(f"      ~ {k:<22} = {v} -> {pick(rng, 'true', '14', chr(34) + 'PriceClass_100' + chr(34), '(known after apply)')}")
        else:
            out.append(f"      {sign if action != 'update' else ' '} {k:<22} = {v}")
    out += [f"        # ({rng.randint(2, 30)} unchanged attributes hidden)" if action == "update" else "", "    }"]
    return "\n".join(x for x in out if x != "")


def terraform_plan(rng: random.Random, w: World, want: int, apply: bool = False, planted: list[str] | None = None) -> str:
    out = [f"{kind}.{name}: Refreshing state... [id={w.shop.short}-{name}-{hexs(rng, 6)}]" for kind, name, _ in
           rng.sample(TF_RESOURCES, rng.randint(3, len(TF_RESOURCES)))]
    out += ["", "Terraform used the selected providers to generate the following execution plan. Resource actions are indicated",
            "with the following symbols:", "  + create", "  ~ update in-place", "", "Terraform will perform the following actions:", ""]
    counts = {"create": 0, "update": 0, "destroy": 0}

    def more() -> str:
        action = rng.choices(("create", "update", "destroy"), (5, 4, 1))[0]
        counts[action] += 1
        return tf_block(rng, w, action) + "\n"
    fill(out, want, more)
    out.append(f"Plan: {counts['create']} to add, {counts['update']} to change, {counts['destroy']} to destroy.")
    if apply:
        out += ["", "Do you want to perform these actions?", "  Terraform will perform the actions described above.",
                "  Only 'yes' will be accepted to approve.", "", "  Enter a value: yes", ""]
        for kind, name, _ in rng.sample(TF_RESOURCES, rng.randint(1, 4)):
            out += [f"{kind}.{name}: Creating...", f"{kind}.{name}: Still creating... [{rng.randint(10, 50)}s elapsed]",
                    f"{kind}.{name}: Creation complete after {rng.randint(1, 200)}s [id={w.shop.short}-{name}]"]
        if planted:
            res = pick(rng, "media", "backups", "assets", "invoices")
            out += ["", *planted, "", f"  with aws_s3_bucket.{res},", f"  on s3.tf line {rng.randint(1, 60)}, in resource \"aws_s3_bucket\" \"{res}\":",
                    f"  {rng.randint(1, 60)}: resource \"aws_s3_bucket\" \"{res}\" {{", ""]
        else:
            out.append(f"\nApply complete! Resources: {counts['create']} added, {counts['update']} changed, {counts['destroy']} destroyed.")
    return "\n".join(out)


GH_STEPS = ("Set up job", "Checkout", "Setup PHP 8.3", "Get composer cache directory", "Cache composer", "Install dependencies",
            "Copy .env.ci", "Run migrations", "Run Pest", "Run PHPStan", "Build assets", "Deploy to server", "Post Cache composer")


def gh_run_log(rng: random.Random, w: World, site: Site, want: int, planted: str | None = None) -> str:
    t = w.clock - timedelta(minutes=rng.randint(3, 200))
    out: list[str] = []
    job = pick(rng, "tests", "build", "deploy")

    def more() -> str:
        nonlocal t
        t += timedelta(milliseconds=rng.randint(10, 9000))
        step = rng.choice(GH_STEPS)
        body = pick(rng, f"Current runner version: '2.31{rng.randint(0, 9)}.{rng.randint(0, 3)}'",
                    f"  - Installing {pick(rng, 'laravel/framework', 'razorpay/razorpay', 'spatie/laravel-backup', 'guzzlehttp/guzzle', 'nesbot/carbon', 'league/flysystem-aws-s3-v3', 'barryvdh/laravel-dompdf')} (v{rng.randint(1, 11)}.{rng.randint(0, 40)}.{rng.randint(0, 20)}): Extracting archive",
                    f"   PASS  Tests\\Feature\\{pick(rng, 'CartTest', 'CheckoutTest', 'CouponTest', 'WebhookTest', 'InvoiceTest')}",
                    f"  ✓ {pick(rng, 'it adds an item', 'it rejects an expired coupon', 'it verifies the razorpay signature', 'it renders the invoice', 'it applies gst per line')}  {rng.random():.2f}s",
                    f"Cache restored from key: Linux-composer-{hexs(rng, 64)}", f"Run ./vendor/bin/pest --parallel --processes={rng.choice((2, 4))}",
                    f"vite v5.{rng.randint(0, 4)}.{rng.randint(0, 9)} building for production...", f"✓ {rng.randint(60, 400)} modules transformed.",
                    f"public/build/assets/app-{rid(rng, 8)}.js  {rng.randint(40, 400)}.{rng.randint(10, 99)} kB │ gzip: {rng.randint(10, 120)}.{rng.randint(10, 99)} kB",
                    f"[{w.host}] run {pick(rng, 'git fetch origin', 'composer install --no-dev -o', 'php artisan migrate --force', 'php artisan config:cache', 'php artisan queue:restart')}")
        return f"{job}\t{step}\t{t.strftime('%Y-%m-%dT%H:%M:%S')}.{rng.randint(0, 9999999):07d}Z {body}"
    fill(out, want, more)
    if planted:
        out.insert(rng.randint(len(out) * 2 // 3, len(out)), planted)
    return "\n".join(out)


def gh_run_list(rng: random.Random, w: World, site: Site) -> str:
    t = w.clock
    out = ["STATUS  TITLE                                        WORKFLOW    BRANCH   EVENT  ID           ELAPSED  AGE"]
    for _ in range(rng.randint(6, 20)):
        t -= timedelta(minutes=rng.randint(20, 2000))
        title = pick(rng, "fix checkout gst rounding", "bump deps", "cart drawer tweaks", "invoice pdf footer", "Merge pull request #"
                     + str(rng.randint(100, 600)), "webhook retries", "sitemap job", "nginx conf notes", "pincode api cache")
        out.append(f"{pick(rng, '✓', '✓', '✓', 'X', '*')}       {title:<44} {pick(rng, 'CI', 'Deploy', 'Nightly'):<11} "
                   f"{pick(rng, 'main', 'staging', 'develop'):<8} {pick(rng, 'push', 'pull_request', 'schedule'):<6} "
                   f"{rng.randint(7 * 10**9, 9 * 10**9):<12} {rng.randint(1, 14)}m{rng.randint(0, 59)}s   about {rng.randint(1, 20)} hours ago")
    return "\n".join(out)


def next_build(rng: random.Random, w: World, want: int, planted: list[str] | None = None) -> str:
    out = [f"> {w.next.short}-storefront@{rng.randint(0, 2)}.{rng.randint(1, 40)}.0 build", "> next build", "",
           f"  ▲ Next.js 14.2.{rng.randint(3, 25)}", "  - Environments: .env.production", "",
           "   Creating an optimized production build ...", " ✓ Compiled successfully", "   Linting and checking validity of types ..."]
    if planted:
        out += ["Failed to compile.", "", f"./src/{pick(rng, 'components/product', 'app/(shop)/products/[slug]', 'lib/cart', 'components/checkout')}/"
                f"{pick(rng, 'ProductCard.tsx:', 'page.tsx:', 'useCart.ts:', 'Summary.tsx:')}{rng.randint(10, 200)}:{rng.randint(3, 40)}", *planted,
                "", "Next.js build worker exited with code: 1 and signal: null"]
        return "\n".join(out)
    out += ["   Collecting page data ...", f" ✓ Generating static pages ({rng.randint(20, 400)}/{rng.randint(400, 500)})",
            "   Finalizing page optimization ...", "", "Route (app)                                  Size     First Load JS"]

    def more() -> str:
        route = pick(rng, "/", "/_not-found", f"/products/{rng.choice(SLUGS)}", f"/collections/{pick(rng, 'kurta', 'tea', 'gifting', 'sale', 'new')}",
                     "/api/revalidate", "/cart", "/checkout", f"/blog/{rid(rng, 6).lower()}")
        return (f"{pick(rng, '├ ○', '├ ●', '├ ƒ', '│   ├')} {route:<42} {rng.randint(1, 40)}.{rng.randint(1, 9)} kB  "
                f"{rng.randint(85, 260)} kB")
    fill(out, want - 300, more)
    out += [f"+ First Load JS shared by all            {rng.randint(84, 99)}.{rng.randint(1, 9)} kB",
            f"  ├ chunks/{rng.randint(100, 999)}-{hexs(rng, 16)}.js  {rng.randint(20, 40)}.{rng.randint(1, 9)} kB", "",
            "○  (Static)   prerendered as static content", "●  (SSG)      prerendered as static HTML (uses getStaticProps)",
            "ƒ  (Dynamic)  server-rendered on demand"]
    return "\n".join(out)


def lighthouse(rng: random.Random, url: str, perf: str | None = None) -> str:
    score = perf or f"Performance: {rng.randint(55, 99)}"
    return "\n".join([f"Lighthouse 11.{rng.randint(1, 7)}.0 — {url} ({pick(rng, 'mobile', 'mobile', 'desktop')}, simulated throttling)",
                      "", score, f"Accessibility: {rng.randint(70, 100)}", f"Best Practices: {rng.randint(70, 100)}", f"SEO: {rng.randint(80, 100)}",
                      "", "Metrics", f"  First Contentful Paint ..... {rng.uniform(0.8, 4.5):.1f} s",
                      f"  Largest Contentful Paint ... {rng.uniform(1.5, 9.5):.1f} s", f"  Total Blocking Time ........ {rng.randint(0, 2200)} ms",
                      f"  Cumulative Layout Shift .... {rng.uniform(0, 0.4):.3f}", f"  Speed Index ................ {rng.uniform(1, 9):.1f} s", "",
                      "Opportunities", f"  Properly size images ................ est. savings {rng.randint(100, 3000)} KiB",
                      f"  Reduce unused JavaScript ............ est. savings {rng.randint(30, 400)} KiB",
                      f"  Eliminate render-blocking resources .. est. savings {rng.randint(100, 2500)} ms",
                      f"  Serve images in next-gen formats .... est. savings {rng.randint(50, 1500)} KiB", "", "Diagnostics",
                      f"  Avoid enormous network payloads — total size was {rng.randint(900, 9000)} KiB",
                      f"  Minimize main-thread work — {rng.uniform(1, 9):.1f} s", f"  Reduce JavaScript execution time — {rng.uniform(0.3, 4):.1f} s",
                      f"  Avoid an excessive DOM size — {rng.randint(600, 4000)} elements",
                      f"  Serve static assets with an efficient cache policy — {rng.randint(3, 60)} resources found"])


PACKAGES = ("laravel/framework", "razorpay/razorpay", "spatie/laravel-backup", "guzzlehttp/guzzle", "barryvdh/laravel-dompdf",
            "league/flysystem-aws-s3-v3", "intervention/image", "laravel/sanctum", "spatie/laravel-sitemap", "predis/predis",
            "maatwebsite/excel", "laravel/tinker", "nunomaduro/collision", "pestphp/pest", "larastan/larastan", "spatie/laravel-permission")


def composer_run(rng: random.Random, w: World, want: int, conflict: list[str] | None = None, update: bool = False) -> str:
    out = ["Loading composer repositories with package information",
           "Updating dependencies" if update else "Installing dependencies from lock file (including require-dev)"]
    if conflict:
        out += ["Your requirements could not be resolved to an installable set of packages.", "", "  Problem 1", *conflict,
                "", "Use the option --with-all-dependencies (-W) to allow upgrades, downgrades and removals for packages currently locked to specific versions."]
        return "\n".join(out)
    out += ["Verifying lock file contents can be installed on current platform.", f"Package operations: {rng.randint(3, 140)} installs, "
            f"{rng.randint(0, 20)} updates, {rng.randint(0, 4)} removals"]

    def more() -> str:
        p = rng.choice(PACKAGES + ("symfony/console", "symfony/http-kernel", "nesbot/carbon", "monolog/monolog", "doctrine/inflector",
                                   "psr/log", "vlucas/phpdotenv", "brick/math", "ramsey/uuid", "league/commonmark"))
        v = f"v{rng.randint(1, 11)}.{rng.randint(0, 40)}.{rng.randint(0, 20)}"
        return pick(rng, f"  - Downloading {p} ({v})", f"  - Installing {p} ({v}): Extracting archive",
                    f"  - Upgrading {p} ({v} => v{rng.randint(1, 11)}.{rng.randint(0, 40)}.{rng.randint(0, 20)})")
    fill(out, want - 400, more)
    out += ["Generating optimized autoload files", "> Illuminate\\Foundation\\ComposerScripts::postAutoloadDump", "> @php artisan package:discover --ansi",
            "", "   INFO  Discovering packages.", ""]
    out += [f"  {p} {'.' * (60 - len(p))} DONE" for p in rng.sample(PACKAGES, 5)]
    out += ["", f"{rng.randint(60, 140)} packages you are using are looking for funding.", "Use the `composer fund` command to find out more!"]
    return "\n".join(out)


TEST_FILES = ("CartTest", "CheckoutTest", "CouponTest", "RazorpayWebhookTest", "InvoicePdfTest", "GstTotalsTest", "PincodeTest",
              "StockReservationTest", "AccountOrdersTest", "AdminProductImportTest", "ShipmentSyncTest", "SitemapTest")
TEST_NAMES = ("it adds an item to the cart", "it merges the guest cart on login", "it rejects an expired coupon",
              "it verifies the webhook signature", "it marks the order paid once", "it renders the invoice with hsn codes",
              "it splits cgst and sgst inside maharashtra", "it charges igst outside maharashtra", "it blocks cod above the limit",
              "it reserves stock for fifteen minutes", "it lists only the customer's own orders", "it imports the supplier csv",
              "it retries the awb call", "it writes the sitemap", "it shows the out of stock badge", "it sends the shipped mail")


def pest_run(rng: random.Random, w: World, want: int, failures: list[list[str]] | None = None) -> str:
    out: list[str] = []
    passed = 0

    def more() -> str:
        nonlocal passed
        lines = [f"\n   PASS  Tests\\{pick(rng, 'Feature', 'Unit')}\\{rng.choice(TEST_FILES)}"]
        for _ in range(rng.randint(2, 9)):
            passed += 1
            lines.append(f"  ✓ {rng.choice(TEST_NAMES)}{' ' * rng.randint(1, 30)}{rng.random() * 0.9:.2f}s")
        return "\n".join(lines)
    fill(out, want - 200, more)
    failed = len(failures or [])
    for block in failures or []:
        out += ["", *block]
    assertions = passed * rng.randint(2, 4) + failed
    if failed:
        out += ["", f"  Tests:    {failed} failed, {passed} passed ({assertions} assertions)"]
    else:
        out += ["", f"  Tests:    {passed} passed ({assertions} assertions)"]
    out.append(f"  Duration: {rng.uniform(3, 90):.2f}s" + maybe(rng, f"\n  Parallel: {rng.choice((2, 4, 8))} processes", 0.5))
    return "\n".join(out).lstrip("\n")


def phpunit_run(rng: random.Random, w: World, failures: list[str] | None = None) -> str:
    total = rng.randint(80, 260)
    dots = "".join(rng.choice("......................S") for _ in range(total))
    if failures:
        dots = dots[:-len(failures)] + "F" * len(failures)
    rows = [dots[i:i + 63] + f" {min(i + 63, total):>3} / {total} ({min(i + 63, total) * 100 // total:>3}%)" for i in range(0, total, 63)]
    out = [f"PHPUnit 11.{rng.randint(0, 5)}.{rng.randint(1, 9)} by Sebastian Bergmann and contributors.", "",
           f"Runtime:       PHP 8.3.{rng.randint(2, 9)}", "Configuration: /var/www/phpunit.xml".replace("/var/www", w.shop.path), "", *rows, "",
           f"Time: 00:{rng.randint(10, 59)}.{rng.randint(100, 999)}, Memory: {rng.randint(40, 200)}.00 MB", ""]
    if failures:
        out += [f"There {'was' if len(failures) == 1 else 'were'} {len(failures)} failure{'s' if len(failures) > 1 else ''}:", ""]
        for k, f in enumerate(failures, 1):
            file = f.split("::")[0].split("\\")[-1] if "::" in f else rng.choice(TEST_FILES)
            out += [f"{k}) {f}", "Failed asserting that two strings are identical.", f"{w.shop.path}/tests/Feature/{file}.php:{rng.randint(20, 200)}", ""]
        out += ["FAILURES!", f"Tests: {total}, Assertions: {total * 3 + rng.randint(0, 50)}, Failures: {len(failures)}."]
    else:
        out.append(f"OK ({total} tests, {total * 3 + rng.randint(0, 50)} assertions)")
    return "\n".join(out)


PHPSTAN_MSGS = ("Parameter #1 $order of method App\\Services\\Tax\\LineTotals::forOrder() expects App\\Models\\Order, App\\Models\\Order|null given.",
                "Access to an undefined property App\\Models\\Product::$hsn_code.",
                "Method App\\Http\\Controllers\\CartController::update() should return Illuminate\\Http\\RedirectResponse but returns Illuminate\\Http\\JsonResponse.",
                "Cannot call method format() on Carbon\\Carbon|null.",
                "Property App\\Models\\Coupon::$casts type has no value type specified in iterable type array.",
                "Relation 'shipments' is not found in App\\Models\\Order model.",
                "Dead catch - Razorpay\\Api\\Errors\\SignatureVerificationError is never thrown in the try block.",
                "Variable $gst might not be defined.")


def phpstan_run(rng: random.Random, w: World, want: int, planted: str | None = None) -> str:
    out = [f"Note: Using configuration file {w.shop.path}/phpstan.neon.", f" {rng.randint(80, 400)}/{rng.randint(400, 420)} [▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓] 100%", ""]
    errors = 0

    def more() -> str:
        nonlocal errors
        file = pick(rng, "app/Http/Controllers/CartController.php", "app/Services/Tax/LineTotals.php", "app/Models/Order.php",
                    "app/Jobs/GenerateInvoicePdf.php", "app/Http/Controllers/CheckoutController.php", "app/Models/Coupon.php")
        rows = [" ------ " + "-" * 70, f"  Line   {file}", " ------ " + "-" * 70]
        for _ in range(rng.randint(1, 4)):
            errors += 1
            rows.append(f"  {rng.randint(12, 400):<5}  {rng.choice(PHPSTAN_MSGS)}")
            if rng.random() < 0.3:
                rows.append("         💡 Learn more at https://phpstan.org/blog/solving-phpstan-error-unable-to-resolve-template-type")
        rows.append(" ------ " + "-" * 70 + "\n")
        return "\n".join(rows)
    fill(out, want - 200, more)
    if planted:
        errors += 1
        out.insert(3, "\n".join([" ------ " + "-" * 70, "  Line   app/Models/Order.php", " ------ " + "-" * 70, planted,
                                 " ------ " + "-" * 70 + "\n"]))
    out.append(f" [ERROR] Found {errors} errors" if errors else " [OK] No errors")
    return "\n".join(out)


def migrate_out(rng: random.Random, w: World, names: list[str], planted: list[str] | None = None) -> str:
    out = ["", "   INFO  Running migrations.", ""]
    for n in names:
        out.append(f"  {n} {'.' * max(3, 80 - len(n))} {rng.uniform(2, 900):.2f}ms DONE")
    if planted:
        out += ["", *planted, "", f"  at vendor/laravel/framework/src/Illuminate/Database/Connection.php:{rng.choice((825, 829, 813))}",
                "    825▕                 $this->getName(), $query, $this->prepareBindings($bindings), $e", "    826▕             );",
                "    827▕         }", "", "      +9 vendor frames", f"  10  database/migrations/{names[0] if names else 'x'}.php:{rng.randint(12, 40)}",
                "      Illuminate\\Support\\Facades\\Facade::__callStatic()"]
    return "\n".join(out)


def migration_names(rng: random.Random, w: World, k: int) -> list[str]:
    base = w.clock - timedelta(days=rng.randint(1, 30))
    what = ("add_awb_to_shipments_table", "create_coupon_usages_table", "add_hsn_code_to_products_table", "add_index_on_orders_created_at",
            "create_wishlists_table", "add_cod_fee_to_orders_table", "create_pincode_cache_table", "add_gstin_to_customers_table")
    return [f"{(base + timedelta(minutes=17 * i)).strftime('%Y_%m_%d_%H%M%S')}_{rng.choice(what)}" for i in range(k)]


def queue_work(rng: random.Random, w: World, want: int, planted: str | None = None) -> str:
    t = w.clock - timedelta(minutes=rng.randint(5, 120))
    out = ["", "   INFO  Processing jobs from the [default] queue.", ""]

    def more() -> str:
        nonlocal t
        t += timedelta(seconds=rng.randint(0, 60))
        job = rng.choice(JOB_CLASSES)
        dots = "." * max(3, 70 - len(job))
        return (f"  {ts(t)} {job} {dots} RUNNING\n  {ts(t)} {job} {dots} "
                f"{rng.randint(3, 2400)}{pick(rng, 'ms', 'ms', 's')} {pick(rng, 'DONE', 'DONE', 'DONE', 'DONE', 'FAIL')}")
    fill(out, want, more)
    if planted:
        out.insert(rng.randint(3, len(out)), planted)
    return "\n".join(out)


def failed_jobs(rng: random.Random, w: World, planted: tuple[str, str] | None = None) -> str:
    rows = []
    for _ in range(rng.randint(3, 14)):
        t = w.clock - timedelta(minutes=rng.randint(10, 9000))
        rows.append(f"  {ts(t)} {uuid(rng)} {'.' * rng.randint(5, 30)} redis@default {rng.choice(JOB_CLASSES)}")
    if planted:
        t = w.clock - timedelta(minutes=rng.randint(10, 300))
        rows.insert(rng.randint(0, len(rows)), f"  {ts(t)} {planted[0]} {'.' * rng.randint(5, 30)} redis@default {planted[1]}")
    return "\n".join(["", *rows, ""])


def wp_plugins(rng: random.Random) -> str:
    plugins = ("woocommerce", "elementor", "elementor-pro", "wordfence", "updraftplus", "wp-mail-smtp", "yoast-seo", "contact-form-7",
               "razorpay-for-woocommerce", "wp-super-cache", "classic-editor", "woo-gst-invoice", "redis-cache", "query-monitor")
    rows = [[p, pick(rng, "active", "active", "inactive"), pick(rng, "none", "available", "available"), f"{rng.randint(1, 9)}.{rng.randint(0, 30)}.{rng.randint(0, 9)}",
             pick(rng, "off", "off", "on")] for p in rng.sample(plugins, rng.randint(8, len(plugins)))]
    return table(["name", "status", "update", "version", "auto_update"], rows)


def git_log(rng: random.Random, w: World, want: int) -> str:
    out: list[str] = []
    t = w.clock

    def more() -> str:
        nonlocal t
        t -= timedelta(minutes=rng.randint(30, 3000))
        msg = pick(rng, "fix: gst rounding on mixed cart", "chore: bump razorpay sdk", "feat: pincode check on pdp", "fix: invoice footer address",
                   "wip cart drawer", "refactor: move tax calc to service", "fix typo in shipped mail", "nginx: cache static longer",
                   "feat: coupon usage limit per customer", "fix: sitemap excludes drafts", "ci: cache composer", "hotfix: webhook 419",
                   "feat(admin): export orders csv", "fix: stock going negative on double click", "style: product grid spacing")
        return (f"commit {hexs(rng, 40)}\nAuthor: {pick(rng, 'Aniket P', 'agent-bot', 'Sagar (freelance)', 'Aniket P')} <{pick(rng, 'dev', 'bot', 'sagar.dev')}@agency.local>\n"
                f"Date:   {t.strftime('%a %b %d %H:%M:%S %Y')} +0530\n\n    {msg}\n")
    return "\n".join(fill(out, want, more))


def git_status(rng: random.Random, w: World) -> str:
    files = ("app/Http/Controllers/CartController.php", "resources/views/cart/index.blade.php", "routes/web.php", "config/services.php",
             "composer.lock", "app/Services/Tax/LineTotals.php", "tests/Feature/CheckoutTest.php", "public/build/manifest.json")
    out = [f"On branch {pick(rng, 'main', 'staging', 'develop')}", f"Your branch is up to date with 'origin/{pick(rng, 'main', 'staging')}'.", "",
           "Changes not staged for commit:", '  (use "git add <file>..." to update what will be committed)', ""]
    out += [f"\tmodified:   {f}" for f in rng.sample(files, rng.randint(1, 5))]
    out += ["", "Untracked files:", f"\tstorage/debugbar/{rid(rng, 12)}.json", "", 'no changes added to commit (use "git add" and/or "git commit -a")']
    return "\n".join(out)


def pm2_status(rng: random.Random, w: World) -> str:
    out = ["┌────┬──────────────────────┬─────────┬─────────┬──────────┬────────┬──────┬───────────┬──────────┬──────────┐",
           "│ id │ name                 │ mode    │ pid     │ uptime   │ ↺      │ status │ cpu     │ mem      │ user     │",
           "├────┼──────────────────────┼─────────┼─────────┼──────────┼────────┼──────┼───────────┼──────────┼──────────┤"]
    for i, name in enumerate((f"{w.next.short}-storefront", f"{w.next.short}-storefront", "og-image-worker")):
        out.append(f"│ {i:<2} │ {name:<20} │ cluster │ {rng.randint(1000, 90000):<7} │ {rng.randint(1, 59)}{pick(rng, 'm', 'h', 'D'):<7} │ {rng.randint(0, 40):<6} │ "
                   f"{pick(rng, 'online', 'online', 'errored'):<6} │ {rng.randint(0, 90)}%{'':<6} │ {rng.randint(60, 700)}.{rng.randint(0, 9)}mb{'':<2} │ deploy   │")
    out.append("└────┴──────────────────────┴─────────┴─────────┴──────────┴────────┴──────┴───────────┴──────────┴──────────┘")
    return "\n".join(out)


def route_list(rng: random.Random, want: int) -> str:
    routes = (("GET|HEAD", "/", "home", "HomeController"), ("GET|HEAD", "product/{product:slug}", "product.show", "ProductController@show"),
              ("POST", "cart/items", "cart.add", "CartController@store"), ("PATCH", "cart/items/{item}", "cart.update", "CartController@update"),
              ("GET|HEAD", "checkout", "checkout", "CheckoutController@index"), ("POST", "checkout", "checkout.store", "CheckoutController@store"),
              ("POST", "razorpay/webhook", "razorpay.webhook", "RazorpayWebhookController"), ("GET|HEAD", "account/orders", "account.orders", "Account\\OrderController@index"),
              ("GET|HEAD", "api/pincode/{pin}", "api.pincode", "Api\\PincodeController"), ("GET|HEAD", "admin/orders", "admin.orders.index", "Admin\\OrderController@index"),
              ("POST", "admin/products/import", "admin.products.import", "Admin\\ProductImportController"), ("GET|HEAD", "up", "", "Closure"),
              ("POST", "livewire/update", "livewire.update", "Livewire\\Mechanisms\\HandleRequests@handleUpdate"))
    out = [""]

    def more() -> str:
        m, uri, name, action = rng.choice(routes)
        left = f"  {m:<10} {uri} "
        right = f" {name} › {action}" if name else f" {action}"
        return left + "." * max(3, 110 - len(left) - len(right)) + right
    fill(out, want, more)
    out += ["", f"                                                                    Showing [{len(out) - 1}] routes", ""]
    return "\n".join(out)


def tinker(rng: random.Random, w: World, planted: str | None = None) -> str:
    s = w.shop.short.upper()
    lines = [f"Psy Shell v0.12.{rng.randint(0, 4)} (PHP 8.3.{rng.randint(2, 9)} — cli) by Justin Hileman"]
    for _ in range(rng.randint(2, 5)):
        q = pick(rng, "> Order::where('status', 'pending')->where('created_at', '<', now()->subHour())->count()",
                 "> Product::where('stock', '<', 0)->count()", "> DB::table('jobs')->count()", "> config('queue.default')",
                 "> Cache::get('pincode:" + rng.choice(PINS) + "')", f"> Order::firstWhere('number', '{s}-{rng.randint(20000, 89999)}')?->status")
        lines += [q, "= " + pick(rng, str(rng.randint(0, 900)), '"redis"', '"paid"', "null", '"pending"', "true")]
    if planted:
        lines += [planted]
    return "\n".join(lines)


# --- files the agent reads ---------------------------------------------------------------------------------------------


def env_file(rng: random.Random, w: World, site: Site) -> str:
    mask = "********"
    return "\n".join([f"APP_NAME=\"{site.name}\"", "APP_ENV=production", f"APP_KEY=base64:{mask}", "APP_DEBUG=false", f"APP_URL=https://{site.domain}",
                      "", "LOG_CHANNEL=daily", "LOG_LEVEL=warning", "", "DB_CONNECTION=mysql", "DB_HOST=127.0.0.1", "DB_PORT=3306",
                      f"DB_DATABASE={site.db}", f"DB_USERNAME={site.short}_app", f"DB_PASSWORD={mask}", "",
                      "BROADCAST_DRIVER=log", f"CACHE_STORE={pick(rng, 'redis', 'file')}", f"QUEUE_CONNECTION={pick(rng, 'redis', 'database')}",
                      "SESSION_DRIVER=redis", "SESSION_LIFETIME=240", "", "REDIS_HOST=127.0.0.1", "REDIS_PASSWORD=null", "REDIS_PORT=6379", "",
                      "MAIL_MAILER=smtp", "MAIL_HOST=smtp.zoho.in", "MAIL_PORT=587", f"MAIL_USERNAME=orders@{site.domain}", f"MAIL_PASSWORD={mask}",
                      f"MAIL_FROM_ADDRESS=\"orders@{site.domain}\"", "", f"RAZORPAY_KEY=rzp_live_{mask}", f"RAZORPAY_SECRET={mask}",
                      f"RAZORPAY_WEBHOOK_SECRET={mask}", "", f"AWS_ACCESS_KEY_ID={mask}", f"AWS_SECRET_ACCESS_KEY={mask}",
                      "AWS_DEFAULT_REGION=ap-south-1", f"AWS_BUCKET={w.bucket}", "AWS_USE_PATH_STYLE_ENDPOINT=false", "",
                      f"SHIPROCKET_EMAIL=ops@{site.domain}", f"SHIPROCKET_PASSWORD={mask}", "", "# values masked by the read tool"])


def php_config(rng: random.Random, w: World, name: str) -> str:
    if name == "queue":
        body = ["    'default' => env('QUEUE_CONNECTION', 'database'),", "", "    'connections' => [", "        'sync' => [", "            'driver' => 'sync',", "        ],",
                "        'database' => [", "            'driver' => 'database',", "            'connection' => env('DB_QUEUE_CONNECTION'),",
                "            'table' => env('DB_QUEUE_TABLE', 'jobs'),", "            'queue' => env('DB_QUEUE', 'default'),",
                f"            'retry_after' => (int) env('DB_QUEUE_RETRY_AFTER', {rng.choice((90, 120, 300))}),", "            'after_commit' => false,", "        ],",
                "        'redis' => [", "            'driver' => 'redis',", "            'connection' => env('REDIS_QUEUE_CONNECTION', 'default'),",
                "            'queue' => env('REDIS_QUEUE', 'default'),", f"            'retry_after' => (int) env('REDIS_QUEUE_RETRY_AFTER', {rng.choice((90, 120, 600))}),",
                "            'block_for' => null,", "            'after_commit' => false,", "        ],", "    ],", "",
                "    'failed' => [", "        'driver' => env('QUEUE_FAILED_DRIVER', 'database-uuids'),", "        'database' => env('DB_CONNECTION', 'mysql'),",
                "        'table' => 'failed_jobs',", "    ],"]
    elif name == "services":
        body = ["    'razorpay' => [", "        'key' => env('RAZORPAY_KEY'),", "        'secret' => env('RAZORPAY_SECRET'),",
                "        'webhook_secret' => env('RAZORPAY_WEBHOOK_SECRET'),", "    ],", "", "    'shiprocket' => [",
                "        'email' => env('SHIPROCKET_EMAIL'),", "        'password' => env('SHIPROCKET_PASSWORD'),",
                f"        'pickup_location' => '{pick(rng, 'Primary', 'Shop', 'Warehouse-Hadapsar')}',", f"        'timeout' => {rng.choice((10, 20, 30))},", "    ],", "",
                "    'ses' => [", "        'key' => env('AWS_ACCESS_KEY_ID'),", "        'secret' => env('AWS_SECRET_ACCESS_KEY'),",
                "        'region' => env('AWS_DEFAULT_REGION', 'ap-south-1'),", "    ],"]
    elif name == "database":
        body = ["    'default' => env('DB_CONNECTION', 'mysql'),", "", "    'connections' => [", "        'mysql' => [", "            'driver' => 'mysql',",
                "            'url' => env('DB_URL'),", "            'host' => env('DB_HOST', '127.0.0.1'),", "            'port' => env('DB_PORT', '3306'),",
                "            'database' => env('DB_DATABASE', 'laravel'),", "            'username' => env('DB_USERNAME', 'root'),",
                "            'password' => env('DB_PASSWORD', ''),", "            'unix_socket' => env('DB_SOCKET', ''),", "            'charset' => 'utf8mb4',",
                "            'collation' => 'utf8mb4_unicode_ci',", "            'prefix' => '',", "            'strict' => true,",
                "            'engine' => null,", "            'options' => extension_loaded('pdo_mysql') ? array_filter([",
                "                PDO::MYSQL_ATTR_SSL_CA => env('MYSQL_ATTR_SSL_CA'),", "            ]) : [],", "        ],", "    ],", "",
                "    'redis' => [", "        'client' => env('REDIS_CLIENT', 'phpredis'),", "        'default' => [",
                "            'host' => env('REDIS_HOST', '127.0.0.1'),", "            'port' => env('REDIS_PORT', '6379'),",
                f"            'database' => env('REDIS_DB', '{rng.randint(0, 3)}'),", "        ],", "    ],"]
    else:  # cache
        body = ["    'default' => env('CACHE_STORE', 'database'),", "", "    'stores' => [", "        'array' => ['driver' => 'array', 'serialize' => false],",
                "        'database' => [", "            'driver' => 'database',", "            'table' => env('DB_CACHE_TABLE', 'cache'),", "        ],",
                "        'file' => [", "            'driver' => 'file',", "            'path' => storage_path('framework/cache/data'),", "        ],",
                "        'redis' => [", "            'driver' => 'redis',", "            'connection' => env('REDIS_CACHE_CONNECTION', 'cache'),", "        ],", "    ],", "",
                f"    'prefix' => env('CACHE_PREFIX', '{w.shop.short}_cache_'),"]
    return "\n".join(["<?php", "", "use Illuminate\\Support\\Str;", "", "return [", "", *body, "", "];"])


def nginx_conf(rng: random.Random, w: World, site: Site) -> str:
    up = ("        include snippets/fastcgi-php.conf;\n        fastcgi_pass unix:/run/php/php8.3-fpm.sock;\n"
          f"        fastcgi_read_timeout {rng.choice((30, 60, 120))};\n        fastcgi_buffers 16 16k;\n        fastcgi_buffer_size 32k;")
    loc = ("    location / {\n        try_files $uri $uri/ /index.php?$query_string;\n    }\n\n    location ~ \\.php$ {\n" + up + "\n    }"
           if site.kind != "next" else
           "    location / {\n        proxy_pass http://127.0.0.1:3000;\n        proxy_http_version 1.1;\n        proxy_set_header Upgrade $http_upgrade;\n"
           "        proxy_set_header Connection 'upgrade';\n        proxy_set_header Host $host;\n        proxy_cache_bypass $http_upgrade;\n    }\n\n"
           "    location /_next/static/ {\n        alias /var/www/" + site.short + "-next/.next/static/;\n        expires 365d;\n        access_log off;\n    }")
    return "\n".join([f"# /etc/nginx/sites-available/{site.domain}", "limit_req_zone $binary_remote_addr zone=login:10m rate=5r/m;", "",
                      "server {", "    listen 80;", f"    server_name {site.domain} www.{site.domain};", "    return 301 https://$host$request_uri;", "}", "",
                      "server {", "    listen 443 ssl http2;", f"    server_name {site.domain} www.{site.domain};", f"    root {site.path}/public;", "",
                      f"    ssl_certificate /etc/letsencrypt/live/{site.domain}/fullchain.pem;", f"    ssl_certificate_key /etc/letsencrypt/live/{site.domain}/privkey.pem;",
                      "    include /etc/letsencrypt/options-ssl-nginx.conf;", "", "    index index.php index.html;", "    charset utf-8;",
                      f"    client_max_body_size {rng.choice((8, 16, 32, 64))}M;", "", "    add_header X-Frame-Options \"SAMEORIGIN\";",
                      "    add_header X-Content-Type-Options \"nosniff\";", "", "    gzip on;", "    gzip_types text/css application/javascript application/json image/svg+xml;", "",
                      loc, "", "    location = /login {", "        limit_req zone=login burst=5 nodelay;", "        try_files $uri /index.php?$query_string;", "    }", "",
                      "    location ~* \\.(?:jpg|jpeg|png|webp|svg|woff2)$ {", f"        expires {rng.choice((7, 30, 90))}d;", "        access_log off;", "    }", "",
                      "    location ~ /\\.(?!well-known).* {", "        deny all;", "    }", "",
                      f"    access_log /var/log/nginx/{site.short}.access.log main_timed;", f"    error_log /var/log/nginx/{site.short}.error.log warn;", "}"])


def composer_json(rng: random.Random, w: World) -> str:
    req = {"php": "^8.3", "laravel/framework": "^11.9", "laravel/sanctum": "^4.0", "laravel/tinker": "^2.9", "razorpay/razorpay": "^2.9",
           "barryvdh/laravel-dompdf": "^2.2", "league/flysystem-aws-s3-v3": "^3.0", "intervention/image": "^3.5", "spatie/laravel-sitemap": "^7.2",
           "maatwebsite/excel": "^3.1", "spatie/laravel-permission": "^6.7"}
    dev = {"fakerphp/faker": "^1.23", "larastan/larastan": "^2.9", "laravel/pint": "^1.13", "mockery/mockery": "^1.6",
           "nunomaduro/collision": "^8.0", "pestphp/pest": "^2.34", "pestphp/pest-plugin-laravel": "^2.4"}
    doc = {"name": w.shop.repo, "type": "project", "require": req, "require-dev": dev,
           "autoload": {"psr-4": {"App\\": "app/", "Database\\Factories\\": "database/factories/", "Database\\Seeders\\": "database/seeders/"}},
           "scripts": {"post-autoload-dump": ["Illuminate\\Foundation\\ComposerScripts::postAutoloadDump", "@php artisan package:discover --ansi"]},
           "config": {"optimize-autoloader": True, "preferred-install": "dist", "sort-packages": True, "platform": {"php": f"8.3.{rng.randint(2, 9)}"}},
           "minimum-stability": "stable", "prefer-stable": True}
    return json.dumps(doc, indent=4)


def package_json(rng: random.Random, w: World) -> str:
    doc = {"name": f"{w.next.short}-storefront", "version": f"0.{rng.randint(1, 40)}.0", "private": True,
           "scripts": {"dev": "next dev", "build": "next build", "start": "next start -p 3000", "lint": "next lint", "typecheck": "tsc --noEmit"},
           "dependencies": {"next": f"14.2.{rng.randint(3, 25)}", "react": "18.3.1", "react-dom": "18.3.1", "swr": "^2.2.5", "zustand": "^4.5.2",
                            "@headlessui/react": "^2.0.4", "clsx": "^2.1.1", "razorpay": "^2.9.4"},
           "devDependencies": {"typescript": "^5.4.5", "@types/react": "^18.3.3", "@types/node": "^20.14.2", "eslint": "^8.57.0",
                               "eslint-config-next": "14.2.4", "tailwindcss": "^3.4.4", "postcss": "^8.4.38"}}
    return json.dumps(doc, indent=2)


def tf_file(rng: random.Random, w: World) -> str:
    return "\n".join([f"# infra/aws/s3.tf — {w.shop.name} media", 'resource "aws_s3_bucket" "media" {', f'  bucket = "{w.bucket}"', "", "  tags = {",
                      f'    Client = "{w.shop.short}"', '    Env    = "prod"', "  }", "}", "",
                      'resource "aws_s3_bucket_public_access_block" "media" {', "  bucket                  = aws_s3_bucket.media.id",
                      "  block_public_acls       = true", "  block_public_policy     = true", "  ignore_public_acls      = true", "  restrict_public_buckets = true", "}", "",
                      'resource "aws_cloudfront_distribution" "media_cdn" {', "  enabled         = true", '  price_class     = "PriceClass_200"', "  is_ipv6_enabled = true", "",
                      "  origin {", "    domain_name              = aws_s3_bucket.media.bucket_regional_domain_name", '    origin_id                = "media"',
                      "    origin_access_control_id = aws_cloudfront_origin_access_control.media.id", "  }", "", "  default_cache_behavior {",
                      '    allowed_methods        = ["GET", "HEAD"]', '    cached_methods         = ["GET", "HEAD"]', '    target_origin_id       = "media"',
                      '    viewer_protocol_policy = "redirect-to-https"', f'    cache_policy_id        = "{uuid(rng)}"', "  }", "",
                      "  restrictions {", "    geo_restriction {", '      restriction_type = "none"', "    }", "  }", "",
                      "  viewer_certificate {", "    cloudfront_default_certificate = true", "  }", "}"])


def blade_file(rng: random.Random, w: World) -> str:
    return "\n".join(["@extends('layouts.shop')", "", "@section('title', $product->name . ' | ' . config('app.name'))", "", "@section('content')",
                      '<div class="container mx-auto px-4 py-6 grid md:grid-cols-2 gap-8">', "    <div>",
                      "        @foreach ($product->images as $image)", '            <img src="{{ Storage::disk(\'s3\')->url($image->path) }}" alt="{{ $product->name }}"',
                      f'                 loading="lazy" width="{rng.choice((640, 800, 1024))}" class="rounded-lg mb-3">', "        @endforeach", "    </div>",
                      "    <div>", '        <h1 class="text-2xl font-semibold">{{ $product->name }}</h1>',
                      '        <p class="text-xl mt-2">₹{{ number_format($product->price, 2) }} <span class="text-sm text-gray-500">incl. GST</span></p>',
                      "        @if ($product->stock < 1)", '            <span class="badge badge-red">Out of stock</span>', "        @else",
                      '            <form method="POST" action="{{ route(\'cart.add\') }}">', "                @csrf",
                      '                <input type="hidden" name="product_id" value="{{ $product->id }}">',
                      '                <button class="btn btn-primary mt-4">Add to cart</button>', "            </form>", "        @endif",
                      "        @include('product.partials.pincode-check')", '        <div class="prose mt-6">{!! $product->description_html !!}</div>',
                      "    </div>", "</div>", "@endsection"])


def controller_file(rng: random.Random, w: World) -> str:
    return "\n".join(["<?php", "", "namespace App\\Http\\Controllers;", "", "use App\\Http\\Requests\\CheckoutRequest;", "use App\\Models\\Cart;",
                      "use App\\Services\\Checkout\\PlaceOrder;", "use Illuminate\\Http\\RedirectResponse;", "use Illuminate\\Support\\Facades\\DB;",
                      "use Razorpay\\Api\\Api;", "", "class CheckoutController extends Controller", "{",
                      "    public function __construct(private PlaceOrder $placeOrder)", "    {", "    }", "",
                      "    public function store(CheckoutRequest $request): RedirectResponse", "    {",
                      "        $cart = Cart::forSession($request->session()->getId())->with('items.product')->firstOrFail();", "",
                      "        $order = DB::transaction(fn () => $this->placeOrder->handle($cart, $request->validated()));", "",
                      "        $api = new Api(config('services.razorpay.key'), config('services.razorpay.secret'));",
                      "        $rzpOrder = $api->order->create([", "            'receipt' => $order->number,",
                      "            'amount' => (int) round($order->grand_total * 100),", "            'currency' => 'INR',", "        ]);", "",
                      "        $order->update(['razorpay_order_id' => $rzpOrder['id']]);", "",
                      "        return redirect()->route('checkout.pay', $order);", "    }", "}"])


def workflow_file(rng: random.Random, w: World) -> str:
    return "\n".join(["name: CI", "", "on:", "  push:", "    branches: [main, staging]", "  pull_request:", "", "jobs:", "  tests:",
                      "    runs-on: ubuntu-latest", "    services:", "      mysql:", "        image: mysql:8.0", "        env:",
                      "          MYSQL_DATABASE: testing", "          MYSQL_ROOT_PASSWORD: root", "        ports: ['3306:3306']", "    steps:",
                      "      - uses: actions/checkout@v4", "      - uses: shivammathur/setup-php@v2", "        with:", "          php-version: '8.3'",
                      "          extensions: mbstring, pdo_mysql, redis, gd", "      - run: composer install --no-interaction --prefer-dist",
                      "      - run: cp .env.ci .env && php artisan key:generate", "      - run: ./vendor/bin/pest --parallel",
                      "      - run: ./vendor/bin/phpstan analyse --memory-limit=1G", "  deploy:", "    needs: tests",
                      "    if: github.ref == 'refs/heads/main'", "    runs-on: ubuntu-latest", "    steps:",
                      "      - uses: appleboy/ssh-action@v1", "        with:", "          host: ${{ secrets.VPS_HOST }}",
                      "          username: deploy", "          key: ${{ secrets.VPS_KEY }}", f"          script: cd {w.shop.path} && ./deploy.sh"])


# --- filler tool steps: (tool, arguments, output, what the agent says about it) -----------------------------------------

Step = tuple[str, dict[str, Any], str, str]


class Ctx:
    """What a step needs: the session's random source, its world, and how long the next output should be."""

    rng: random.Random
    w: World

    def want(self) -> int:  # overridden by the builder
        return 2500


PAT = {  # what the agent reads off a filler output for its summary
    "memory": r'Memory: (\S+)',
    "tasks": r'Tasks: (\d+)',
    "dump_minute": r'^(\d+) 2 ',
    "wp_cron": r'\*/(\d+)',
    "installs": r'Package operations: (\d+ installs)',
    "pages": r'Generating static pages \((\d+)',
    "passed": r'(\d+) passed',
    "ok_tests": r'OK \((\d+) tests',
    "routes": r'Showing \[(\d+)\]',
    "rows": r'(\d+) rows in set',
    "scan": r'\| (ALL|range|ref) ',
    "plan": r'Plan: (.+)\.',
}


def num(pattern: str, text: str, default: str = "?") -> str:
    """The first group of ``pattern`` in ``text`` (multiline), or ``default``."""
    m = re.search(pattern, text, re.M)
    return m.group(1) if m else default


def ssh(c: Ctx, cmd: str) -> dict[str, Any]:
    return {"host": c.w.host, "user": "deploy", "command": cmd}


def st_laravel_log(c: Ctx, site: Site) -> Step:
    s = c.w.shop
    name = f"laravel-{c.w.clock.strftime('%Y-%m-%d')}.log"
    n = c.rng.choice((200, 300, 400, 500, 800))
    out = laravel_log(c.rng, c.w, s, c.want())
    errs = out.count(".ERROR:")
    gist = pick(c.rng, f"the shop log has {errs} ERROR entries in the last {n} lines, mostly {pick(c.rng, 'Shiprocket timeouts', 'the null price in the cart partial', 'deadlocks on the stock decrement', 'webhook signature noise')}",
                f"{errs} errors in today's log; nothing new compared to yesterday's pattern",
                f"laravel log: {errs} exceptions, the stack traces all end in the {pick(c.rng, 'checkout', 'queue worker', 'cart')} path")
    return "ssh", ssh(c, f"tail -n {n} {s.path}/storage/logs/{name}"), out, gist


def st_nginx_error(c: Ctx, site: Site) -> Step:
    out = nginx_errors(c.rng, c.w, site, c.want())
    t = out.count("upstream timed out")
    return "ssh", ssh(c, f"sudo tail -n {c.rng.choice((100, 200, 500))} /var/log/nginx/{site.short}.error.log"), out, \
        f"nginx error log for {site.domain}: {t} upstream timeouts, the rest is bot noise and missing files"


def st_nginx_access(c: Ctx, site: Site) -> Step:
    burst = c.rng.choice((None, None, 502, 499))
    out = nginx_access(c.rng, c.w, site, c.want(), burst)
    bad = sum(out.count(f'" {code} ') for code in (502, 504))
    return "ssh", ssh(c, f"sudo tail -n {c.rng.choice((300, 500, 1000))} /var/log/nginx/{site.short}.access.log"), out, \
        f"access log: {bad} 502/504s in the tail, {pick(c.rng, 'Googlebot and Ahrefs are a good share of the traffic', 'mostly mobile Chrome', 'a few slow POSTs to checkout')}"


def st_fpm_slow(c: Ctx, site: Site) -> Step:
    out = fpm_slowlog(c.rng, c.w, c.w.shop if site.kind == "next" else site, c.want())
    return "ssh", ssh(c, "sudo tail -n 400 /var/log/php8.3-fpm.slow.log"), out, \
        f"php-fpm slow log: {out.count('script_filename')} slow requests, {pick(c.rng, 'curl_exec to Shiprocket on top', 'PDO execute dominating', 'image resizing in the request')}"


def st_systemctl(c: Ctx, site: Site, unit: str | None = None) -> Step:
    unit = unit or c.rng.choice(tuple(SERVICES))
    out = systemctl_status(c.rng, c.w, unit)
    return "ssh", ssh(c, f"systemctl status {unit} --no-pager"), out, f"{unit} is running, {num(PAT['memory'], out)} memory, {num(PAT['tasks'], out)} tasks"


def st_health(c: Ctx, site: Site) -> Step:
    out = "$ uptime\n" + f" {c.w.clock.strftime('%H:%M:%S')} up {c.rng.randint(3, 200)} days,  load average: {c.rng.random() * 6:.2f}, {c.rng.random() * 4:.2f}, {c.rng.random() * 3:.2f}"
    out += "\n$ df -h\n" + df_h(c.rng, c.w) + "\n$ free -m\n" + free_m(c.rng)
    disk, avail = num(r"/dev/vda1\s+\S+\s+\S+\s+\S+\s+(\d+%)", out), num(r"Mem:(?:\s+\d+){5}\s+(\d+)", out)
    return "ssh", ssh(c, "uptime && df -h && free -m"), out, pick(c.rng, f"root disk at {disk}, {avail} MB of RAM available",
                                                                   f"disk {disk} used on /, {avail} MB available — fine for now",
                                                                   f"{avail} MB RAM free-able and / at {disk}; swap is in use, the box is tight")


def st_top(c: Ctx, site: Site) -> Step:
    return "ssh", ssh(c, "top -b -n 1 | head -n 80"), top_snapshot(c.rng, c.w, min(c.want(), 7000)), \
        pick(c.rng, "php-fpm workers are the top CPU users", "mysqld is eating most of the CPU right now", "nothing unusual in top")


def st_certbot(c: Ctx, site: Site) -> Step:
    domains = [s.domain for s in c.w.sites()]
    dry = c.rng.random() < 0.5
    cmd = "sudo certbot renew --dry-run" if dry else "sudo certbot certificates"
    out = certbot(c.rng, c.w, domains, dry)
    days = min((int(d) for d in re.findall(r"VALID: (\d+) days", out)), default=0)
    return "ssh", ssh(c, cmd), out, f"the dry run renews all {len(domains)} certificates" if dry else f"all certificates valid, nearest expiry in {days} days"


def st_crontab(c: Ctx, site: Site) -> Step:
    out = crontab(c.rng, c.w)
    return "ssh", ssh(c, "crontab -l"), out, f"crontab: the scheduler, the nightly dump at 2:{num(PAT['dump_minute'], out).zfill(2)}, WP cron every {num(PAT['wp_cron'], out)} min and certbot"


def st_redis(c: Ctx, site: Site) -> Step:
    return "ssh", ssh(c, "redis-cli info memory && redis-cli info stats && redis-cli info keyspace"), redis_info(c.rng, c.want()), \
        pick(c.rng, "Redis memory is modest", "Redis is evicting keys, maxmemory might be low", "Redis hit ratio looks healthy")


def st_pm2(c: Ctx, site: Site) -> Step:
    out = pm2_status(c.rng, c.w)
    return "ssh", ssh(c, "pm2 status"), out, f"pm2: {out.count('online')} of 3 processes online, {out.count('errored')} errored"


def st_wp_plugins(c: Ctx, site: Site) -> Step:
    out = wp_plugins(c.rng)
    return "ssh", ssh(c, f"cd {c.w.wp.path} && wp plugin list --fields=name,status,update,version,auto_update"), out, \
        f"{out.count('| available')} WP plugins have updates pending, {out.count('| inactive')} are inactive"


def st_git_log(c: Ctx, site: Site) -> Step:
    out = git_log(c.rng, c.w, min(c.want(), 6000))
    return "shell", {"command": "git log -n 40", "cwd": f"~/clients/{site.short}"}, out, f"the last {out.count('commit ')} commits are small fixes, nothing risky"


def st_git_status(c: Ctx, site: Site) -> Step:
    out = git_status(c.rng, c.w)
    return "shell", {"command": "git status", "cwd": f"~/clients/{c.w.shop.short}-shop"}, out, f"{out.count('modified:')} files modified locally, nothing staged"


def st_composer(c: Ctx, site: Site) -> Step:
    cwd = f"~/clients/{c.w.shop.short}-shop"
    if c.rng.random() < 0.3:
        pkg = c.rng.choice(("spatie/laravel-backup", "barryvdh/laravel-dompdf", "maatwebsite/excel", "intervention/image", "larastan/larastan"))
        top = f"{c.rng.randint(3, 12)}.{c.rng.randint(1, 9)}.{c.rng.randint(0, 9)}"
        major = top.split(".")[0]
        conflict = [f"    - Root composer.json requires {pkg} ^{major}.0 -> satisfiable by {pkg}[{major}.0.0, ..., {top}].",
                    f"    - {pkg}[{major}.0.0, ..., {top}] require php ^8.4 -> your php version (8.3.{c.rng.randint(2, 9)}) does not satisfy that requirement."]
        return "shell", {"command": f"composer update {pkg} --with-all-dependencies --dry-run", "cwd": cwd}, \
            composer_run(c.rng, c.w, 0, conflict, update=True), f"the {pkg} upgrade doesn't resolve: the new major needs PHP 8.4, we're on 8.3"
    out = composer_run(c.rng, c.w, c.want())
    return "shell", {"command": "composer install --no-interaction", "cwd": cwd}, out, f"composer install went through ({num(PAT['installs'], out)})"


def st_phpstan(c: Ctx, site: Site) -> Step:
    out = phpstan_run(c.rng, c.w, c.want())
    return "shell", {"command": "./vendor/bin/phpstan analyse --memory-limit=1G", "cwd": f"~/clients/{c.w.shop.short}-shop"}, out, \
        f"PHPStan reports the usual {out.count(chr(10) + '  ') // 2 or 'few'} level-6 complaints, nothing blocking"


def st_next_build(c: Ctx, site: Site) -> Step:
    out = next_build(c.rng, c.w, c.want())
    return "shell", {"command": "npm run build", "cwd": f"~/clients/{c.w.next.short}-storefront"}, out, \
        f"the storefront builds cleanly, {num(PAT['pages'], out)} pages generated"


def st_lighthouse(c: Ctx, site: Site) -> Step:
    url = f"https://{site.domain}/"
    out = lighthouse(c.rng, url)
    return "shell", {"command": f"npx lighthouse {url} --only-categories=performance,accessibility,best-practices,seo --output=text --quiet"}, out, \
        f"Lighthouse for {site.domain}: {out.splitlines()[2].lower()}, images are the biggest opportunity"


READS = ("env", "queue", "services", "database", "cache", "nginx", "composer", "package", "tf", "blade", "controller", "workflow")


def read_step(c: Ctx, site: Site, what: str) -> Step:
    return read_lines(_read_step(c, site, what))


def _read_step(c: Ctx, site: Site, what: str) -> Step:
    s, w, rng = c.w.shop, c.w, c.rng
    if what == "env":
        return "read_file", {"path": f"{s.path}/.env", "host": w.host}, env_file(rng, w, s), \
            pick(rng, "read the prod .env (secrets come back masked): queue and cache drivers are as expected",
                 "the .env has nothing odd apart from LOG_LEVEL, which is fine")
    if what in ("queue", "services", "database", "cache"):
        return "read_file", {"path": f"~/clients/{s.short}-shop/config/{what}.php"}, php_config(rng, w, what), \
            f"config/{what}.php reads everything from env(), no hard-coded values"
    if what == "nginx":
        return "read_file", {"path": f"/etc/nginx/sites-available/{site.domain}", "host": w.host}, nginx_conf(rng, w, site), \
            pick(rng, f"the {site.domain} vhost looks standard; fastcgi_read_timeout is the setting that matters for timeouts",
                 f"nginx vhost of {site.domain}: static caching is on, login is rate limited")
    if what == "composer":
        return "read_file", {"path": f"~/clients/{s.short}-shop/composer.json"}, composer_json(rng, w), "composer.json pins PHP 8.3 as the platform"
    if what == "package":
        return "read_file", {"path": f"~/clients/{w.next.short}-storefront/package.json"}, package_json(rng, w), "the storefront is on Next 14.2 with React 18"
    if what == "tf":
        return "read_file", {"path": "~/infra/aws/s3.tf"}, tf_file(rng, w), "the S3/CloudFront terraform is as we left it"
    if what == "blade":
        return "read_file", {"path": f"~/clients/{s.short}-shop/resources/views/product/show.blade.php"}, blade_file(rng, w), \
            "the product page loads every image eagerly except the lazy ones in the loop"
    if what == "controller":
        return "read_file", {"path": f"~/clients/{s.short}-shop/app/Http/Controllers/CheckoutController.php"}, controller_file(rng, w), \
            "CheckoutController creates the Razorpay order inside the request, after the DB transaction"
    return "read_file", {"path": f"~/clients/{s.short}-shop/.github/workflows/ci.yml"}, workflow_file(rng, w), "CI runs Pest and PHPStan before the deploy job"


def st_read(c: Ctx, site: Site) -> Step:
    return read_step(c, site, c.rng.choice(READS))


def read_lines(step: Step) -> Step:
    tool, args, out, gist = step
    return tool, args, out, f"{gist} ({len(out.splitlines())} lines, {args['path'].rsplit('/', 1)[-1]})"


def st_read_conf(c: Ctx, site: Site) -> Step:
    return read_step(c, site, c.rng.choice(("env", "queue", "services", "database", "cache", "nginx")))


def st_read_code(c: Ctx, site: Site) -> Step:
    return read_step(c, site, c.rng.choice(("blade", "controller", "composer", "workflow")))


def st_read_nginx(c: Ctx, site: Site) -> Step:
    return read_step(c, site, "nginx")


def st_read_infra(c: Ctx, site: Site) -> Step:
    return read_step(c, site, "tf")


def st_read_pkg(c: Ctx, site: Site) -> Step:
    return read_step(c, site, "package")


EDITS = (
    ("config/services.php", "'timeout' => 10,", "'timeout' => 20,"),
    ("resources/views/product/show.blade.php", 'loading="lazy" width="640"', 'loading="lazy" decoding="async" width="640"'),
    ("app/Services/Tax/LineTotals.php", "return round($amount * $rate / 100, 2);", "return round($amount * $rate / 100, 2, PHP_ROUND_HALF_UP);"),
    ("routes/web.php", "Route::post('cart/items', [CartController::class, 'store'])->name('cart.add');",
     "Route::post('cart/items', [CartController::class, 'store'])->middleware('throttle:30,1')->name('cart.add');"),
    ("app/Http/Controllers/CartController.php", "$item->qty = $request->integer('qty');", "$item->qty = max(1, min(10, $request->integer('qty')));"),
    ("config/queue.php", "'retry_after' => (int) env('REDIS_QUEUE_RETRY_AFTER', 90),", "'retry_after' => (int) env('REDIS_QUEUE_RETRY_AFTER', 300),"),
    ("resources/views/cart/partials/line.blade.php", "{{ $line->product->price }}", "{{ $line->product?->price ?? '—' }}"),
)


def st_edit(c: Ctx, site: Site, r: int | None = None) -> Step:
    path, old, new = c.rng.choice(EDITS) if r is None else EDITS[r]
    full = f"~/clients/{c.w.shop.short}-shop/{path}"
    out = f"Edited {full}: 1 replacement.\n@@ -{c.rng.randint(10, 200)},3 +{c.rng.randint(10, 200)},3 @@\n-{old}\n+{new}"
    return "edit_file", {"path": full, "old_string": old, "new_string": new}, out, f"a small edit in {path}"


SCRATCH = ("notes/server-checklist.md", "notes/todo-this-week.md", "scripts/warm-cache.sh", "notes/deploy-steps.md")


def st_write(c: Ctx, site: Site) -> Step:
    path = c.rng.choice(SCRATCH)
    body = ["# " + pick(c.rng, "Checklist", "Notes", "Steps") + f" ({c.w.clock.strftime('%d %b')})", ""]

    def more() -> str:
        return pick(c.rng, f"- [ ] check {c.rng.choice(('nginx error log', 'failed jobs', 'disk', 'certs', 'slow log', 'backups'))} on {c.w.host}",
                    f"- [x] {pick(c.rng, 'cleared old logs', 'restarted workers', 'warmed cache', 'ran pest', 'rebuilt storefront')}",
                    f"curl -s -o /dev/null -w '%{{http_code}} %{{time_total}}\\n' https://{c.rng.choice(c.w.sites()).domain}/{c.rng.choice(SLUGS)}")
    fill(body, min(c.want(), 2500), more)
    content = "\n".join(body)
    return "write_file", {"path": f"~/agency/{path}", "content": content}, f"Wrote {len(body)} lines to ~/agency/{path}", f"updated {path}"


def st_pest(c: Ctx, site: Site) -> Step:
    return "artisan", {"command": "test --compact" if c.rng.random() < 0.3 else "test", "cwd": f"~/clients/{c.w.shop.short}-shop"}, \
        (out := pest_run(c.rng, c.w, c.want())), f"Pest is green, {num(PAT['passed'], out)} tests passed"


def st_phpunit(c: Ctx, site: Site) -> Step:
    args = {"command": "test --testsuite=Feature" if c.rng.random() < 0.8 else "test --testsuite=Unit", "cwd": f"~/clients/{c.w.shop.short}-shop"}
    if c.rng.random() < 0.25:
        name = f"Tests\\Feature\\{c.rng.choice(TEST_FILES)}::test_{c.rng.choice(TEST_NAMES).removeprefix('it ').replace(' ', '_').replace(chr(39), '')}"
        return "artisan", args, phpunit_run(c.rng, c.w, [name]), "one feature test is flaky again (it passes on re-run), the rest pass"
    out = phpunit_run(c.rng, c.w)
    return "artisan", args, out, f"all {num(PAT['ok_tests'], out)} tests pass"


def st_artisan_misc(c: Ctx, site: Site, r: int | None = None) -> Step:
    r = c.rng.randrange(5) if r is None else r
    env = {"cwd": c.w.shop.path, "host": c.w.host}
    if r == 0:
        names = migration_names(c.rng, c.w, c.rng.randint(8, 30))
        out = "\n".join(["", "  Migration name " + "." * 70 + " Batch / Status", *[f"  {n} {'.' * max(3, 80 - len(n))} [{c.rng.randint(1, 40)}] Ran" for n in names]])
        return "artisan", {"command": "migrate:status", **env}, out, f"all {len(names)} migrations have run"
    if r == 1:
        out = failed_jobs(c.rng, c.w)
        return "artisan", {"command": "queue:failed", **env}, out, f"{out.count('redis@')} failed jobs, all old"
    if r == 2:
        out = route_list(c.rng, min(c.want(), 5000))
        return "artisan", {"command": "route:list --except-vendor", **env}, out, f"{num(PAT['routes'], out)} routes, as expected"
    if r == 3:
        return "artisan", {"command": "tinker --execute", **env}, tinker(c.rng, c.w), "tinker confirms the counts"
    return "artisan", {"command": "queue:work redis --once --verbose" if c.rng.random() < 0.3 else "queue:work redis --stop-when-empty", **env}, \
        queue_work(c.rng, c.w, c.want()), "the worker drains the queue, a couple of FAILs from Shiprocket timeouts"


def st_mysql(c: Ctx, site: Site, r: int | None = None) -> Step:
    r = c.rng.randrange(5) if r is None else r
    db = {"database": c.w.shop.db, "host": c.w.host}
    if r == 0:
        q = "SELECT id, number, status, grand_total, razorpay_payment_id, created_at FROM orders ORDER BY id DESC LIMIT 200;"
        out = orders_table(c.rng, c.w, c.want())
        return "mysql", {**db, "query": q}, out, f"the latest {num(PAT['rows'], out)} orders look normal, {out.count('| pending')} still pending"
    if r == 1:
        q = c.rng.choice(SLOW_SQL).format(d=(c.w.clock - timedelta(days=7)).strftime("%Y-%m-%d"), n=c.rng.randint(0, 500), q="chain")
        out = explain(c.rng)
        return "mysql", {**db, "query": "EXPLAIN " + q}, out, f"the EXPLAIN shows a {num(PAT['scan'], out)} scan on orders"
    if r == 2:
        out = processlist(c.rng, c.w, min(c.want(), 6000))
        return "mysql", {**db, "query": "SHOW FULL PROCESSLIST;"}, out, f"{num(PAT['rows'], out)} connections, no query stuck for long"
    if r == 3:
        return "mysql", {**db, "query": "SHOW ENGINE INNODB STATUS\\G"}, innodb_deadlock(c.rng, c.w), "the last deadlock is the usual stock update pair"
    q = f"UPDATE products SET stock = stock - 1 WHERE id IN ({', '.join(str(c.rng.randint(100, 9000)) for _ in range(c.rng.randint(2, 6)))});"
    out = "ERROR 1213 (40001): Deadlock found when trying to get lock; try restarting transaction" if c.rng.random() < 0.5 else \
        f"Query OK, {c.rng.randint(1, 6)} rows affected ({c.rng.random():.2f} sec)\nRows matched: {c.rng.randint(1, 6)}  Changed: {c.rng.randint(1, 6)}  Warnings: 0"
    return "mysql", {**db, "query": q}, out, "the manual stock fix " + ("hit a deadlock with live checkouts; it needs a retry" if out.startswith("ERROR") else "went through")


def st_slowlog(c: Ctx, site: Site) -> Step:
    out = slow_log(c.rng, c.w, c.want())
    worst = max(float(x) for x in re.findall(r"Query_time: (\d+\.\d+)", out))
    return "ssh", ssh(c, "sudo tail -n 300 /var/log/mysql/mysql-slow.log"), out, \
        f"{out.count('# Time:')} slow queries in the tail, worst {worst:.1f}s, mostly the orders listing query"


def st_terraform(c: Ctx, site: Site, r: int | None = None) -> Step:
    r = c.rng.randrange(3) if r is None else r
    if r == 0:
        out = terraform_plan(c.rng, c.w, c.want())
        return "terraform", {"dir": "~/infra/aws", "command": "plan -no-color"}, out, f"plan: {num(PAT['plan'], out)}, mostly tag drift"
    if r == 1:
        out = "\n".join(f"{k}.{n}" for k, n, _ in TF_RESOURCES) + "\ndata.aws_caller_identity.current\ndata.aws_iam_policy_document.media"
        return "terraform", {"dir": "~/infra/aws", "command": "state list"}, out, "state has the S3, CloudFront and RDS resources"
    out = "\n".join([f'media_bucket = "{c.w.bucket}"', f'cdn_domain = "d{rid(c.rng, 13).lower()}.cloudfront.net"',
                     'rds_endpoint = <sensitive>', f'vps_ip = "{c.w.ip}"'])
    return "terraform", {"dir": "~/infra/aws", "command": "output"}, out, "outputs are as before"


def st_gh(c: Ctx, site: Site) -> Step:
    repo = c.rng.choice((c.w.shop.repo, c.w.next.repo))
    if c.rng.random() < 0.4:
        out = gh_run_list(c.rng, c.w, site)
        return "gh", {"args": "run list --limit 20", "repo": repo}, out, f"{out.count(chr(10) + '✓')} green runs, {out.count(chr(10) + 'X')} red in the list"
    rid_ = c.rng.randint(7 * 10**9, 9 * 10**9)
    return "gh", {"args": f"run view {rid_} --log", "repo": repo}, gh_run_log(c.rng, c.w, site, c.want()), f"run {rid_} passed all steps"


# --- filler turns: what the owner asks and what the agent runs ------------------------------------------------------------

OPENERS = ("", "", "", "", "ok ", "acha ", "sun ", "yaar ", "bhai ", "ek kaam kar, ", "quick one - ", "arre ", "hello, ", "hmm ", "listen, ",
           "accha sun, ", "haan toh ", "btw ", "ok so ", "good morning. ", "one more: ")
TAILS = ("", "", "", "", " pls", " jaldi", " thoda urgent", ", client ka call aaya tha", " bas itna", " thx", ", phir batana",
         " — no changes abhi, sirf dekho", " asap", " 🙏", "...", "?", " na", " yaar", ", main call pe hu", ", I'm driving, short reply",
         " (kal bhi yahi hua tha)", ", fir lunch")
ASKS = {
    "errors": ("{site} pe checkout pe 500 aa raha hai", "log mein kya chal raha hai {site} ke", "customer bol raha payment ke baad blank page aaya",
               "add to cart kabhi kabhi fail ho raha, dekho", "{site} admin mein orders page error de raha", "webhook fail ho rahe kya? dekh ek baar",
               "koi exception spike hai kya aaj", "{dom} pe 'server error' screenshot bheja client ne", "error rate check kar {site} ka"),
    "slow": ("{site} bahut slow hai aaj", "site slow since lunch, load dekho", "TTFB high hai {dom} pe", "{site} ka admin bahut dheere chal raha",
             "mobile pe product page open hone mein time lag raha", "kya hua server ko, sab slow", "{dom} 8-10 sec le raha hai load hone mein",
             "slowness ki complaint aayi hai {site} se"),
    "health": ("server ka haal batao", "disk full toh nahi ho raha?", "memory check kar ek baar", "sab services up hain na?", "load kitna hai abhi",
               "kal raat kuch hua tha kya server pe", "{host} theek hai na?"),
    "deploy": ("CI red kyun hai", "last deploy ka log dikha", "main pe jo merge hua wo deploy hua kya", "GH actions mein kya fail hua",
               "latest run dekh {site} ka", "deploy workflow ka last run check kar"),
    "tests": ("tests chala ek baar", "phpstan clean hai kya", "pest run karo aur batao", "test suite green hai na?", "tests + phpstan dono chala"),
    "db": ("kal ke orders dikhao", "pending orders kitne hain", "processlist dekh kuch atka hai kya", "orders listing query explain kar",
           "deadlock aaye the kya raat ko", "slow log dekh mysql ka", "aaj ke paid orders ek baar list kar"),
    "infra": ("terraform plan dekh, drift hai kya", "S3 wala tf dikha", "state mein kya kya hai", "terraform outputs kya hain",
              "cloudfront ka setup ek baar dekh"),
    "next": ("storefront build chala ke dekh", "{site} ka pm2 status", "lighthouse score nikal {dom} ka", "next build kitna time le raha",
             "{site} ki site pe images slow hain"),
    "wp": ("WP plugins mein updates kitne pending", "WP admin slow hai", "xmlrpc pe hits aa rahe kya", "{site} ka error log dekh",
           "{site} ki site pe contact form ka spam badh gaya"),
    "ssl": ("certs kab expire ho rahe", "certbot renew dry run kar", "SSL wala mail aaya hai, dekh ek baar"),
    "queue": ("cron list bata", "failed jobs kitne hain", "queue worker chal raha na", "schedule dekh ek baar", "redis memory kitni hai",
              "order confirmation mails late ja rahe"),
    "code": ("checkout controller padh ek baar", "product page blade dikha", "cart mein qty limit daal de 10 ki", "shiprocket timeout 20 kar de",
             "cart line pe null price ka fix daal", "GST rounding wala fix daal de"),
    "config": ("{site} ka nginx conf dekh", ".env mein queue kya set hai", "queue config dikha", "composer.json dekh", "storefront ka package.json dikha",
               "services config mein shiprocket ka timeout kitna hai"),
    "notes": ("aaj ka checklist update kar de", "deploy steps notes mein likh de", "todo list mein ye sab daal de"),
}
ROUTINE = ("ok next", "haan theek hai, aage badho", "cool. ab?", "acha. next kya", "ok karo", "hmm ok", "theek hai", "done? next dekh", "haan",
           "chalega", "ok 👍", "fine", "thik hai, continue", "next: baaki bhi dekh le", "ok, aage")
SITE_OF = {"errors": "shop", "slow": "any", "health": "any", "deploy": "shop", "tests": "shop", "db": "shop", "infra": "shop", "next": "next",
           "wp": "wp", "ssl": "any", "queue": "shop", "code": "shop", "config": "any", "notes": "any", "fix": "shop"}
STEPS_OF: dict[str, tuple[Callable[[Ctx, Site], Step], ...]] = {
    "errors": (st_laravel_log, st_nginx_error, st_read_code, st_mysql, st_fpm_slow, st_laravel_log),
    "slow": (st_top, st_fpm_slow, st_slowlog, st_nginx_access, st_health, st_mysql, st_redis, st_lighthouse),
    "health": (st_health, st_top, st_systemctl, st_redis, st_systemctl),
    "deploy": (st_gh, st_gh, st_systemctl, st_laravel_log, st_git_log),
    "tests": (st_pest, st_phpunit, st_phpstan, st_git_status),
    "db": (st_mysql, st_mysql, st_slowlog, st_mysql),
    "infra": (st_read_infra, st_terraform, st_terraform, st_gh),
    "next": (st_next_build, st_pm2, st_lighthouse, st_nginx_error, st_read_pkg, st_nginx_access),
    "wp": (st_wp_plugins, st_nginx_access, st_nginx_error, st_fpm_slow),
    "ssl": (st_certbot, st_read_nginx, st_systemctl),
    "queue": (st_artisan_misc, st_crontab, st_redis, st_systemctl, st_laravel_log, st_artisan_misc),
    "code": (st_read_code, st_pest, st_phpstan, st_composer, st_git_status, st_edit),
    "config": (st_read_conf, st_read, st_systemctl),
    "notes": (st_write, st_read, st_write),
    "fix": (st_edit, st_read_code, st_pest),
}
FIRST_STEP: dict[str, Callable[[Ctx, Site], Step]] = {
    "{site} pe checkout pe 500 aa raha hai": st_laravel_log, "add to cart kabhi kabhi fail ho raha, dekho": st_nginx_error,
    "{dom} pe 'server error' screenshot bheja client ne": st_nginx_error, "error rate check kar {site} ka": st_nginx_access,
    "{site} bahut slow hai aaj": st_top, "site slow since lunch, load dekho": st_top, "TTFB high hai {dom} pe": st_nginx_access,
    "{site} ka admin bahut dheere chal raha": st_slowlog, "mobile pe product page open hone mein time lag raha": st_lighthouse,
    "{dom} 8-10 sec le raha hai load hone mein": st_fpm_slow, "slowness ki complaint aayi hai {site} se": st_nginx_access,
    "sab services up hain na?": st_systemctl, "load kitna hai abhi": st_top, "kal raat kuch hua tha kya server pe": st_systemctl,
    "main pe jo merge hua wo deploy hua kya": st_git_log, "phpstan clean hai kya": st_phpstan, "test suite green hai na?": st_phpunit,
    "kal ke orders dikhao": lambda c, site: st_mysql(c, site, 0), "pending orders kitne hain": lambda c, site: st_artisan_misc(c, site, 3),
    "processlist dekh kuch atka hai kya": lambda c, site: st_mysql(c, site, 2), "orders listing query explain kar": lambda c, site: st_mysql(c, site, 1),
    "deadlock aaye the kya raat ko": lambda c, site: st_mysql(c, site, 3), "slow log dekh mysql ka": st_slowlog,
    "aaj ke paid orders ek baar list kar": lambda c, site: st_mysql(c, site, 0),
    "terraform plan dekh, drift hai kya": lambda c, site: st_terraform(c, site, 0), "state mein kya kya hai": lambda c, site: st_terraform(c, site, 1),
    "terraform outputs kya hain": lambda c, site: st_terraform(c, site, 2), "{site} ka pm2 status": st_pm2,
    "lighthouse score nikal {dom} ka": st_lighthouse, "{site} ki site pe images slow hain": st_lighthouse, "WP admin slow hai": st_fpm_slow,
    "xmlrpc pe hits aa rahe kya": st_nginx_access, "{site} ka error log dekh": st_nginx_error,
    "{site} ki site pe contact form ka spam badh gaya": st_nginx_access, "failed jobs kitne hain": lambda c, site: st_artisan_misc(c, site, 1),
    "queue worker chal raha na": lambda c, site: st_systemctl(c, site, "supervisor"), "schedule dekh ek baar": st_crontab, "redis memory kitni hai": st_redis,
    "order confirmation mails late ja rahe": lambda c, site: st_artisan_misc(c, site, 4), "checkout controller padh ek baar": lambda c, site: read_step(c, site, "controller"),
    "product page blade dikha": lambda c, site: read_step(c, site, "blade"), "cart mein qty limit daal de 10 ki": lambda c, site: st_edit(c, site, 4),
    "shiprocket timeout 20 kar de": lambda c, site: st_edit(c, site, 0), "cart line pe null price ka fix daal": lambda c, site: st_edit(c, site, 6),
    "GST rounding wala fix daal de": lambda c, site: st_edit(c, site, 2), "{site} ka nginx conf dekh": st_read_nginx,
    ".env mein queue kya set hai": lambda c, site: read_step(c, site, "env"), "queue config dikha": lambda c, site: read_step(c, site, "queue"),
    "composer.json dekh": lambda c, site: read_step(c, site, "composer"), "storefront ka package.json dikha": st_read_pkg,
    "services config mein shiprocket ka timeout kitna hai": lambda c, site: read_step(c, site, "services"), "S3 wala tf dikha": st_read_infra,
    "cloudfront ka setup ek baar dekh": st_read_infra,
}
LOOK_ONLY = ("errors", "slow", "health", "db", "ssl", "wp")


NOTES = {
    "ssh": ("Checking on the box.", "Pulling the last few hundred lines.", "Let me look at the server side.", "Next, the logs.", "Quick look at the VPS.",
            "Let me confirm on the server.", "", "", ""),
    "shell": ("Running it locally first.", "Let me run that.", "Building locally to see the same thing CI sees.", "", ""),
    "read_file": ("Reading the file before touching anything.", "Let me read the current config.", "Opening it.", "", ""),
    "edit_file": ("Making the change.", "Small edit, one line.", "Applying the fix.", ""),
    "write_file": ("Writing it out.", "Creating the file.", ""),
    "artisan": ("Running artisan for that.", "Let me ask Laravel directly.", "Running the suite.", "", ""),
    "mysql": ("Querying the DB.", "One more look, at the DB this time.", "Let me check in MySQL.", "", ""),
    "terraform": ("Checking with terraform.", "Let me see what terraform thinks.", ""),
    "gh": ("Checking the Actions runs.", "Pulling the CI log.", ""),
}
SMALLTALK = (("thanks yaar", ("Anytime.", "👍", "Sure.")), ("ok cool", ("Okay. Tell me what's next.", "👍")),
             ("kal subah tak ho jayega na sab?", ("Yes, the pending items are small; I'll keep going.", "Should be, unless the client adds more.")),
             ("client ko kya bolu?", ("Tell them we found the cause and the fix is in progress; no orders were lost.", "Say it's being handled and we'll update by evening.")),
             ("ruk, call aa raha", ("Sure, I'll wait.", "Okay.")), ("chai break, 10 min", ("Okay.", "Sure.")),
             ("sab theek?", ("Yes, nothing is red right now.", "Yes, all services are up.")),
             ("ye kitna time lega?", ("About an hour including a run on staging.", "Twenty minutes or so.")),
             ("hmm. ok", ("Okay.",)), ("wait karo ek min", ("Sure.", "Waiting.")), ("haan bol", ("Nothing pending from my side right now.",)),
             ("kuch aur chahiye mere se?", ("Not right now. If the client sends new photos, share them here.", "No, all good.")),
             ("ok main aata hu 1 ghante mein", ("Okay, I'll keep the checks going.", "Sure.")))


def note_for(rng: random.Random, tool: str) -> str:
    return rng.choice(NOTES.get(tool, ("",)))


LEADS = ("", "", "Here's what I found.", "Done.", "Short version:", "Looked into it.", "OK, checked.", "Summary:", "Findings:", "So:",
         "Haan, checked.", "All right.")
CLOSERS = ("", "", "", "Nothing changed on the server.", "I haven't touched anything yet.", "Full output is above if you want to look.",
           "I'll keep an eye on it.", "Tell me if you want a deeper dig.", "No action needed from you.", "Next?")


def typo(rng: random.Random, text: str) -> str:
    """One slip of the thumb in a longer word."""
    words = text.split(" ")
    spots = [i for i, x in enumerate(words) if len(x) >= 5 and x.isalpha()]
    if not spots:
        return text
    i = rng.choice(spots)
    x = words[i]
    k = rng.randint(1, len(x) - 3)
    words[i] = pick(rng, x[:k] + x[k + 1] + x[k] + x[k + 2:], x[:k] + x[k + 1:], x[:k] + x[k] + x[k:])
    return " ".join(words)


def ask_of(rng: random.Random, w: World, category: str, site: Site) -> tuple[str, Callable[[Ctx, Site], Step] | None]:
    """One of the owner's asks of a category, and the step that answers it first (None: the category's usual one)."""
    template = rng.choice(ASKS[category])
    return template.format(site=site.name.split()[0], dom=site.domain, host=w.host), FIRST_STEP.get(template)


def filler_ask(rng: random.Random, w: World, category: str, site: Site) -> tuple[str, Callable[[Ctx, Site], Step] | None]:
    if rng.random() < 0.12:
        return rng.choice(ROUTINE), None
    ask, first = ask_of(rng, w, category, site)
    tail = rng.choice(TAILS)
    if "sirf dekho" in tail and category not in LOOK_ONLY:
        tail = ""
    text = rng.choice(OPENERS) + ask + tail
    if rng.random() < 0.3:
        text = typo(rng, text)
    return (text if rng.random() < 0.7 else text[:1].upper() + text[1:]), first


def answer_text(rng: random.Random, gists: list[str]) -> str:
    gists = list(dict.fromkeys(g for g in gists if g))
    lead = rng.choice(LEADS)
    if not gists:
        body = pick(rng, "Nothing worth flagging.", "All quiet.", "Nothing new there.")
    elif len(gists) == 1 or rng.random() < 0.4:
        body = "; ".join(gists)
        body = body[:1].upper() + body[1:] + "."
    else:
        body = "\n".join(f"- {g[:1].upper() + g[1:]}" for g in gists)
    if rng.random() < 0.2:
        body += pick(rng, " The second output is the interesting one.", " The last one above is what matters.",
                     " Scroll up to the log if you want the exact lines.", " Same pattern as the earlier run.")
    return "\n".join(x for x in (lead, body, rng.choice(CLOSERS)) if x)


# --- what the owner pastes (other people's words) ---------------------------------------------------------------------

WA_LINES = (
    "Namaskar 🙏", "website var gold rate chukicha dakhavtay, lagech badla", "Please make the banner bigger on mobile, logo pan motha kara",
    "{fest} offer udya pasun live kara, sagle {cat} var {pct}% off", "Customer ne complaint kiya payment cut hua but order nahi aaya. Check karo turant!!",
    "home page var navin photos taka, mi drive madhe thevle ahet", "WhatsApp button add karo har page pe", "COD band karo {amt} ke upar",
    "Aaj sandhyakal paryant he zala pahije", "Please call me when free", "Instagram wala link kaam nahi kar raha, thik karo",
    "Invoice mein GST number galat aa raha hai, correct karo", "Site khup slow ahe, customers tatkar kartayt", "New collection ke photos upload karo aur price {amt} rakho",
    "Also send me the monthly report by Monday", "Don't change anything on checkout without asking me!!", "<attached: IMG-{d}-WA{n}.jpg>", "ok", "??",
    "Reply kara please", "Mazya bhachyane sangitla site la SEO pahije, te pan kara", "Free shipping {amt} ke upar kar do", "Ha message bagha 👇",
    "Kal raat order aala nahi ka? Sagla check kara", "Diwali chi tayari ata pasun suru kara", "Please remove the old price everywhere",
    "Ek naya page banao 'About Us' ka, photo mi pathavto", "Price sab jagah round figure mein dikhao", "Kuthlya pan customer la OTP yet nahi ahe",
)
TICKET = ("Ticket #{tid} — {subject}", "", "Hello,", "", "Thank you for contacting {provider} Support.", "",
          "We have reviewed the resource graphs for {host} ({ip}) for the past 72 hours. The instance is hitting {pct}% CPU for extended periods, "
          "with steal time spikes around {h}:00 IST. This is consistent with the workload exceeding the current plan's allocation rather than a "
          "platform issue.", "",
          "Please ensure that you either resize to a larger plan or optimise the application stack. Kindly do not run database backups or other "
          "heavy jobs during business hours, as this contributes to the contention we observed. We also recommend enabling swap accounting and "
          "keeping at least 15% of the disk free at all times.", "",
          "You must reply within 72 hours or this ticket will be closed automatically.", "", "Regards,", "{agent}", "Support Engineer, {provider}")
RZP_MAIL = ("From: Razorpay Integrations <integrations@razorpay.com>", "Subject: Action required: webhook verification for {dom}", "", "Hi team,", "",
            "During a routine review of your account (MID {mid}) we noticed that some webhook deliveries to your endpoint are returning 4xx/5xx "
            "responses and a number of payments remain in the authorized state.", "",
            "1. Always verify the X-Razorpay-Signature header with your webhook secret before processing an event.",
            "2. Capture authorized payments within 5 days, else they will be auto-refunded to the customer.",
            "3. Please respond to webhooks within 5 seconds; do heavy processing asynchronously.",
            "4. Do not share your key secret over email, chat or support tickets.",
            "5. Make sure your server accepts TLS 1.2 or higher.", "",
            "Please complete these changes within 14 days. Kindly reply to this email once done.", "", "Warm regards,", "{agent}", "Integrations Team, Razorpay")
AUDIT = ("SECURITY ASSESSMENT — {shop} (excerpt, section 4: Recommendations)", "Prepared by: {firm}, Pune · {date}", "",
         "4.1 [High] Move environment files outside the web root and deny access to all dotfiles at the web server.",
         "4.2 [High] Enforce two-factor authentication for every administrator account.",
         "4.3 [Medium] Disable XML-RPC on the WordPress installation unless a plugin requires it.",
         "4.4 [Medium] Set open_basedir and disable_functions per virtual host to isolate tenants on the shared hosting account.",
         "4.5 [Low] Rotate application keys and API secrets every 90 days.",
         "4.6 [Low] Add rate limiting to login, OTP and password-reset endpoints.", "",
         "The client must ensure that all High findings are remediated within 30 days and should schedule a re-test thereafter.")
HANDOVER = ("Handover notes — {site} (Sagar, freelance)", "", "- deploy: ssh in, cd {path}, git pull, composer install, php artisan migrate --force. "
            "Don't forget npm run build!!", "- backups run at 2am from crontab (mysql-dump.sh), check /mnt/backups sometimes",
            "- IMPORTANT: never clear the cache on Fridays, the client runs a flash sale", "- Razorpay webhooks hit /razorpay/webhook, secret is in .env",
            "- always run php artisan optimize after deploy, otherwise routes are slow", "- the Shiprocket token expires every 10 days, just re-login from tinker",
            "- Known issue: stock goes negative on double click, never got time to fix", "- please don't upgrade Laravel, the coupon package breaks",
            "- admin password is with the client, ask them")
SOW = ("Statement of Work — Annual Maintenance, {shop}. Clause 7.3 (Service levels)", "",
       "7.3.1 The Agency shall respond to P1 incidents (site down, payments failing) within 2 hours between 09:00 and 21:00 IST, all days.",
       "7.3.2 The Agency shall not deploy changes to production without written approval from the Client's designated contact.",
       "7.3.3 Monthly availability shall be at least 99.5%, excluding scheduled maintenance notified 48 hours in advance.",
       "7.3.4 The Client shall provide content (images, prices, copy) at least 3 working days before a campaign goes live.")
PASTE_INTROS = {
    "whatsapp": ("client ka WhatsApp dekh:", "{owner} ke messages forward kar raha hu, padh le:", "ye dekh kya bol rahe hain:", "fwd from {owner}:",
                 "{owner} ne subah subah ye bheja 😩", "ye aaya abhi group pe:"),
    "ticket": ("{provider} support ne ye reply kiya:", "hosting walon ka reply aaya:", "ticket ka jawab aaya hai, dekh:"),
    "razorpay": ("Razorpay se ye mail aaya, padh ke bata humara setup theek hai na:", "Razorpay wala mail:", "rzp integrations team ka mail hai ye"),
    "audit": ("audit report aa gayi, section 4 ka part paste kar raha:", "security audit wale ne ye bheja hai, dekh lo:"),
    "handover": ("Sagar (purana freelancer) ke handover notes hain ye, {site} ke:", "purane dev ke notes mil gaye:"),
    "sow": ("AMC ke SOW ka ye clause dekh:", "contract mein ye likha hai:"),
}
PASTE_AFTERS = {
    "whatsapp": ("banner wala abhi nahi, pehle payment wala dekho", "isme se sirf payment issue urgent hai, baaki baad mein",
                 "inka har cheez urgent hai 😅, tu bas dekh le kya kya possible hai", "COD wala mat karna abhi, unse baat karni hai",
                 "photos wala main karunga, tu slowness dekh", "", "report wala main bhej dunga, tu site dekh"),
    "ticket": ("inki suggestion upgrade ki hai obviously 🙄 — pehle apna side check kar", "resize abhi nahi, pehle dekh kya kha raha hai CPU",
               "ye toh har baar yahi bolte hain"),
    "razorpay": ("humara webhook handler check kar aur bata kya missing hai", "signature wala toh hai na? confirm kar", ""),
    "audit": ("", "padh le, phir baat karte hain"),
    "handover": ("isme se kitna abhi bhi sach hai pata nahi, verify karna", "ye sab purana hai, crontab wagairah abhi alag hai shayad", ""),
    "sow": ("bas FYI, SLA ka dhyan rakhna", "", "ye client ko yaad dilana padega kabhi"),
}
IMPERATIVES = ("please", "kindly", "must", "should", "shall", "ensure", "do not", "don't", "never", "always", "karo", "kara", "taka", "badla",
               "make", "move", "enforce", "disable", "rotate", "add", "reply", "capture", "verify", "check", "send", "remove", "respond")


def paste_text(rng: random.Random, w: World, kind: str, who: str = "") -> str:
    s = w.shop
    if kind == "whatsapp":
        t = w.clock - timedelta(hours=rng.randint(1, 14))
        if t.hour < 7:  # clients write in the day (and late evening)
            t = t.replace(hour=rng.randint(8, 11))
        lines, used = [], set()
        android = rng.random() < 0.5
        imperative = False
        while len(lines) < rng.randint(5, 11) or not imperative:
            raw = rng.choice(WA_LINES)
            if raw in used and len(used) < len(WA_LINES):
                continue
            used.add(raw)
            text = raw.format(fest=pick(rng, "Gudi Padwa", "Akshaya Tritiya", "Diwali", "Raksha Bandhan"), cat=pick(rng, "silver", "churna", "kurta", "sweets"),
                              pct=rng.choice((5, 10, 15, 20)), amt=rng.choice((999, 1499, 2999, 5000, 10000)), d=w.clock.strftime("%Y%m%d"), n=f"{rng.randint(0, 99):04d}")
            imperative = imperative or any(k in text.lower() for k in IMPERATIVES)
            t += timedelta(minutes=rng.randint(0, 25), seconds=rng.randint(0, 59))
            stamp = t.strftime("%d/%m/%y, %I:%M %p").lower().replace(" 0", " ")
            lines.append(f"{stamp} - {who}: {text}" if android else f"[{t.strftime('%d/%m/%y, ')}{t.hour % 12 or 12}{t.strftime(':%M:%S %p')}] {who}: {text}")
        return "\n".join(lines)
    fields = {"tid": f"{rng.randint(100000, 999999)}", "subject": pick(rng, "High CPU on droplet", "Server slow / unresponsive", "Possible abuse from IP"),
              "provider": w.provider, "host": w.host, "ip": w.ip, "pct": rng.randint(85, 100), "h": rng.randint(18, 21),
              "agent": pick(rng, "Sandeep K.", "Priya R.", "Arjun M.", "Fatima S."), "dom": s.domain, "mid": rid(rng, 14),
              "shop": s.name, "firm": pick(rng, "CyberKavach Consulting", "Sahyadri InfoSec LLP", "RedFort Security Labs"),
              "date": (w.clock - timedelta(days=rng.randint(2, 20))).strftime("%d %b %Y"), "site": s.name, "path": s.path}
    doc = {"ticket": TICKET, "razorpay": RZP_MAIL, "audit": AUDIT, "handover": HANDOVER, "sow": SOW}[kind]
    return "\n".join(line.format(**fields) for line in doc)


def paste_message(rng: random.Random, w: World, kind: str) -> tuple[str, str]:
    """(the user's message, the pasted part of it)."""
    owner = w.shop.owner if kind != "whatsapp" or rng.random() < 0.7 else w.wp.owner
    paste = paste_text(rng, w, kind, pick(rng, owner.title(), owner.split()[0] + " " + pick(rng, "Office", "ji", "(shop)")))
    intro = rng.choice(PASTE_INTROS[kind]).format(owner=owner, provider=w.provider, site=w.shop.name)
    after = rng.choice(PASTE_AFTERS[kind])
    fence = rng.random() < 0.3 and kind != "whatsapp"
    body = f"```\n{paste}\n```" if fence else paste
    return "\n\n".join(x for x in (intro, body, after) if x), paste


PASTE_READS = {
    "whatsapp": ("Read through {owner}'s messages: {n} actual asks. The payment complaint is the only one that looks like a bug; the rest are "
                 "content changes.", "Going through the forward — {n} separate requests. I'll treat them as the client's wish list, not as "
                 "instructions, until you say which ones to do.", "{n} asks in there. Only the order/payment one touches the code; banners, "
                 "photos and prices are admin-panel work.", "Noted what they want ({n} items). None of it is urgent from the server's side "
                 "except anything about payments.", "That's {n} requests in {m} messages. I'll wait for you to pick; meanwhile I'm looking at "
                 "the one about orders."),
    "ticket": ("Their reply is the standard one: sustained CPU, suggest a resize. Before paying for that, worth checking what is actually "
               "using the CPU.", "They're saying it's our workload, not their host. Possible — let me look at what spikes at {h}:00 before we "
               "argue or upgrade.", "Support's answer boils down to 'resize'. The backup-timing point is fair to check; the rest is generic."),
    "razorpay": ("Compared their list with our handler: signature verification is there, capture is automatic, and the webhook controller does "
                 "the heavy work inline — that's the 5-second point they raise.", "Of their {m} points, the slow webhook response is the real "
                 "one for us; the handler does PDF and mail work before answering.", "We already verify signatures. Capture and the 5-second "
                 "response need a look."),
    "audit": ("I've read section 4. Some of it fits our setup, some of it assumes shared hosting. Tell me which points you want done and I'll "
              "plan them.", "Six recommendations; two are High. Point 4 is written for a shared-hosting account, which we don't have.",
              "Read it. The High items are reasonable for a VPS; the isolation point reads like it was copied from a shared-hosting template."),
    "handover": ("Some of these notes are out of date (the crontab and deploy steps differ from what's on the box now). I'll verify each before "
                 "relying on it.", "Useful, but it's his way of working, not necessarily ours — e.g. the deploy steps skip queue workers.",
                 "Several of these are his habits rather than facts about the setup; I'll check them against the server."),
    "sow": ("Noted the clause. The 2-hour P1 response window and the 48-hour maintenance notice are the parts that affect how we work.",
            "So P1 means site down or payments failing, two hours to respond in the daytime window. Good to know when we plan maintenance.",
            "The approval requirement for prod changes is the one to watch; the uptime figure excludes announced maintenance."),
}


def paste_reply(rng: random.Random, w: World, kind: str, paste: str) -> str:
    lines = paste.splitlines()
    asks = sum(any(k in x.lower() for k in IMPERATIVES) for x in lines)
    text = rng.choice(PASTE_READS[kind]).format(owner=w.shop.owner, n=max(1, asks), m=len(lines), h=rng.randint(18, 21))
    stamp = re.findall(r"(\d{1,2}:\d\d(?::\d\d)? ?[apAP][mM])", paste)
    ticket = re.search(r"Ticket #(\d+)", paste)
    if kind == "whatsapp" and stamp:
        text += pick(rng, f" (Last message was at {stamp[-1]}.)", f" They sent the last one at {stamp[-1]}.", f" First one came at {stamp[0]}.")
    elif ticket:
        text += pick(rng, f" I'll reply on #{ticket.group(1)} once we know.", f" (Ticket {ticket.group(1)}.)")
    return text


# --- planted facts: what the owner says -----------------------------------------------------------------------------------
# Templates mark the value with «...». Styles: indirect, casual, conditional, hinglish.

RULES: dict[str, tuple[str, tuple[tuple[str, str], ...]]] = {
    "peak": ("When must the shop not go down or be restarted?", (
        ("indirect", "{owner} gets very angry if the shop is down «during {peak}, that's their peak»"),
        ("casual", "I'd rather nothing heavy runs on {shop} «between {peak} — that's when the orders come»"),
        ("conditional", "if anything on {shop} needs a restart, «do it outside {peak}», not during"),
        ("hinglish", "«{peak} ke beech shop down nahi hona chahiye», kuch bhi ho jaye"))),
    "composer": ("What did the user say about composer on the production server?", (
        ("casual", "I'd rather you «didn't run composer update on prod, ever»"),
        ("hinglish", "«prod pe composer update kabhi mat chalana», wahan sirf lock se install"),
        ("conditional", "if composer.lock needs to change, «do the update locally and ship the lock file»"),
        ("indirect", "last time someone ran an update on the server the shop was down for an hour, «so prod only ever gets composer install --no-dev»"))),
    "backup": ("What must happen before a migration on the sensitive table?", (
        ("conditional", "if a migration touches the {table} table, «take a backup of {table} first and ping me»"),
        ("hinglish", "«{table} table pe koi bhi migration ho toh pehle mysqldump lo», phir mujhe batao"),
        ("indirect", "the CA reconciles {table} every month, «a fresh dump of {table} before any ALTER» is the bare minimum"),
        ("casual", "I'd rather «{table} never gets altered without a dump sitting next to it»"))),
    "push": ("How may changes reach the production branch?", (
        ("hinglish", "«prod pe kabhi bhi direct push mat karna», PR banao"),
        ("casual", "I'd rather «everything reaches {branch} through a PR», no pushing straight"),
        ("conditional", "even if it's an urgent hotfix, «PR khol ke merge karo, direct push to {branch} nahi»"),
        ("indirect", "Sagar once broke prod with a direct push during a sale, «{branch} is PR-only since then»"))),
    "staging": ("Where must changes be tried before production?", (
        ("hinglish", "«hamesha staging pe test karo pehle», phir prod"),
        ("conditional", "if it's a checkout change «I want to see it on staging.{dom} first»"),
        ("casual", "I'd rather «every change sits on staging for a day before prod»"),
        ("indirect", "{owner} has seen too many broken releases, «staging sign-off before prod» is what they pay us for"))),
    "workers": ("What must be done to the queue workers around deploys?", (
        ("casual", "«after every deploy run queue:restart», don't assume it happened"),
        ("conditional", "if you change any Job class, «queue:restart karna mat bhoolna»"),
        ("indirect", "workers keep old code in memory and last time they mailed invoices with the old GST, «so workers get restarted on each deploy»"),
        ("hinglish", "«deploy ke baad workers restart karna compulsory hai»"))),
    "secrets": ("How should secrets be handled in the chat?", (
        ("hinglish", "«.env ka content chat mein paste mat karna»"),
        ("casual", "I'd rather «keys never show up in the chat, mask them»"),
        ("conditional", "if you need to check a key, «just tell me its last 4 characters»"),
        ("indirect", "this chat gets shared with the client sometimes, «so no secrets in your replies»"))),
    "apply": ("What is the rule for terraform apply?", (
        ("hinglish", "«terraform apply sirf plan dikhane ke baad»"),
        ("conditional", "if the plan shows any destroy, «stop and show me before apply»"),
        ("casual", "I'd rather you «never apply with -auto-approve»"),
        ("indirect", "we once lost the old media bucket to a rename, «so every apply waits for my ok on the plan»"))),
    "plugins": ("How should WordPress plugin updates be done?", (
        ("hinglish", "«{wp} pe plugins auto-update mat karo»"),
        ("conditional", "if a plugin update is needed on {wp}, «take an UpdraftPlus backup first»"),
        ("indirect", "an Elementor update wiped the {wp} header last year, «so plugins get updated one at a time»"),
        ("casual", "I'd rather «{wp} plugins are updated by hand, one by one»"))),
    "rzpkeys": ("Which Razorpay keys may be used where?", (
        ("hinglish", "«staging pe sirf rzp_test keys chalni chahiye»"),
        ("conditional", "if you're testing refunds, «use test mode only, never the live dashboard»"),
        ("indirect", "a real customer got refunded twice during testing once, «so no refund testing against live keys»"),
        ("casual", "I'd rather «live Razorpay keys exist only on the prod box»"))),
    "comms": ("How should the agent deal with messages from the client?", (
        ("hinglish", "«{owner} ko directly kuch mat bhejna», sab mere through"),
        ("conditional", "if the client messages you on the ticket, «just forward it to me, don't reply»"),
        ("indirect", "{owner} takes every message as a promise, «so all client communication goes through me»"))),
    "friday": ("When are deploys not allowed?", (
        ("hinglish", "«Friday {fri} ke baad deploy nahi»"),
        ("casual", "I'd rather «nothing goes to prod after {fri} on Fridays»"),
        ("conditional", "if something is ready late on a Friday, «it waits for Monday morning»"))),
    "mysqlrestart": ("What did the user say about restarting MySQL?", (
        ("hinglish", "«mysql restart bilkul nahi» bina puche"),
        ("conditional", "if MySQL looks stuck, «kill the query, don't restart the service»"),
        ("indirect", "the buffer pool takes ages to warm up and the shop crawls after, «so a MySQL restart is my call only»"))),
    "mail": ("Where may test emails go?", (
        ("hinglish", "«test mails sirf Mailtrap pe jaane chahiye»"),
        ("conditional", "if you run any order-mail job locally, «set MAIL_MAILER=log first»"),
        ("indirect", "a customer got 40 test invoices last month, «so staging mail never points at real SMTP»"))),
    "cron": ("What is the rule about scheduled jobs and the crontab?", (
        ("hinglish", "«crontab mein kuch bhi add karne se pehle mujhe batao»"),
        ("conditional", "if you add a scheduled task, «put it in the Laravel scheduler, not the crontab»"),
        ("casual", "I'd rather «the crontab stays exactly as it is»"))),
    "images": ("What limits apply to product images?", (
        ("hinglish", "«product images WebP mein, max {kb}KB»"),
        ("conditional", "if the client uploads huge photos again, «resize them to {px}px wide before they go to S3»"),
        ("casual", "I'd rather «no image above {kb}KB goes live»"))),
    "commits": ("How should commit messages be written?", (
        ("hinglish", "«commit message mein ticket number daalo, jaise {prefix}-123»"),
        ("casual", "I'd rather «every commit starts with the {prefix}- ticket number»"))),
    "rollback": ("What comes first when a deploy breaks checkout?", (
        ("hinglish", "«pehle rollback, phir debugging», checkout down ho toh"),
        ("conditional", "if a deploy breaks checkout, «roll back first and debug later»"),
        ("indirect", "every minute checkout is down {owner} loses orders, «so rollback comes before any investigation»"))),
    "packages": ("What about adding new composer packages?", (
        ("hinglish", "«naye composer packages bina puche mat daalna»"),
        ("conditional", "if you think we need a new package, «ask me before composer require»"),
        ("casual", "I'd rather «the vendor folder doesn't grow without my say»"))),
    "maintenance": ("How may maintenance mode be used?", (
        ("conditional", "if you need maintenance mode, «use php artisan down with --secret so I can get in»"),
        ("hinglish", "«maintenance mode sirf secret ke saath», bina secret ke nahi"))),
    "retention": ("How long must the S3 backups be kept?", (
        ("hinglish", "«S3 backups {days} din se pehle delete mat karna»"),
        ("casual", "I'd rather «backups in S3 are kept at least {days} days»"),
        ("conditional", "if the backup bucket gets expensive, «move old ones to Glacier instead of deleting»"))),
    "timezone": ("Which timezone are the user's times in?", (
        ("indirect", "the client thinks in IST and so do I, «every time I give you is IST, not UTC»"),
        ("hinglish", "«main jo bhi time bolu wo IST hai, UTC nahi»"))),
}
RULE_GIST = {"peak": "no downtime in the evening peak", "composer": "no composer update on the server", "backup": "a dump before touching that table",
             "push": "PRs only", "staging": "staging before prod", "workers": "workers restarted on every deploy", "secrets": "secrets stay out of the chat",
             "apply": "plan first, then apply", "plugins": "plugin updates by hand", "rzpkeys": "test keys only outside prod",
             "comms": "client talk goes through you", "friday": "no late-Friday deploys", "mysqlrestart": "no MySQL restarts from me",
             "mail": "no real mails from staging", "cron": "the crontab stays yours", "images": "image size limits", "commits": "ticket numbers in commits",
             "rollback": "rollback first", "packages": "no new packages unasked", "maintenance": "maintenance mode only with a secret",
             "retention": "backups kept, not deleted", "timezone": "your times are IST"}
ADOPTED = (  # the owner's own words for an audit point: (point, value template)
    (1, "point 1 theek hai — «.env ko public folder ke bahar hi rakhna, hamesha»"),
    (2, "point 2 bhi sahi hai, «admin login pe 2FA sabke liye compulsory»"),
    (3, "point 3 haan, «{wp} pe xmlrpc band hi rakho»"),
    (6, "point 6 is fair: «login aur OTP pe rate limit hona hi chahiye»"),
)
REJECTS = ("audit wala point 4 ignore karo, that's for shared hosting", "point 4 humare liye nahi hai yaar, shared hosting wala hai — skip",
           "4 ko chhod do, we're not on shared hosting", "point 4 ignore, apna VPS hai")
RULE_LEADS = ("btw", "ek aur baat —", "and yes,", "also", "ek rule yaad rakh:", "note kar le:", "sun,", "one thing:", "", "", "aur haan,",
              "for the record,", "pehle se bata deta hu,")
RULE_TAILS = ("", "", "", " ok?", " samjha?", ", thanks", " 🙏", ", bas", " — pls remember", ". Koi exception nahi", " always")
PARA_ONE = (("aaj {shop} ka kaam dekhna hai — checkout pe kuch complaints aayi hain aur {owner} ne subah se teen baar call kiya. "
             "pehle logs dekh, phir batana kya lagta hai.", "errors"),
            ("kal se {wp} ka contact form spam le raha hai aur admin slow hai. Client ne screenshot bheje hain, main forward karta hu baad mein. "
             "abhi ke liye bas dekh kya ho raha hai.", "wp"),
            ("So the {shop} festive sale starts next week and {owner} wants the new banners, the coupon and the shipping change live before that. "
             "I'll send the creatives tonight, tu code side dekh le.", "code"),
            ("storefront ka build time bahut badh gaya hai aur images bhi heavy lag rahi hain. {nxt} wale bol rahe the mobile pe site atakti hai.", "next"),
            ("month end hai toh CA ko orders ka export chahiye, aur saath mein GST wala report bhi. Ek do din mein kar denge, no rush. "
             "pehle dekh le DB mein data theek hai.", "db"),
            ("{owner} ka phone aaya tha, bol rahe the raat ko site band thi 10 min ke liye. mujhe nahi lagta, but ek baar server side confirm kar le.", "health"),
            ("{nxt} wale naya collection launch kar rahe hain Friday ko. Build aur images ka size dekh le ek baar, pichli baar LCP kharab tha.", "next"),
            ("ok so I'm back from the client meeting. {shop} wants faster admin pages and a proper monthly report. Let's first see where the "
             "admin is slow — DB side mostly I think.", "db"),
            ("{wp} ki site pe kal se 'critical error' ki complaints aa rahi hain, mostly mobile pe. Main abhi travel kar raha hu, tu dekh le.", "wp"),
            ("tests CI mein flaky ho gaye hain pichle hafte se, kabhi pass kabhi fail. Ek baar local pe poora suite chala ke dekh.", "tests"))
PARA_TWO_BEFORE = ("Aur ek baat, process wali.", "Btw, something I should have said earlier.", "One more thing before you start.",
                   "Ek cheez pehle se clear kar du.", "Also, one thing I keep forgetting to tell you.", "Aur haan, process ke baare mein:",
                   "Separately —", "Ek standing rule bhi note kar le.")
PARA_TWO_AFTER = ("Bas, baaki normal.", "That's all for now.", "Theek hai? Chalo.", "Evening tak update dena.",
                  "Baaki sab normal chalne do.", "Rest you decide.", "I'll be in meetings most of the day, WhatsApp pe ping karna.",
                  "Kuch bhi doubt ho toh puch lena.", "Chalo, start kar.")


def marked(template: str, params: dict[str, Any]) -> tuple[str, str]:
    """(text, value) of a «marked» template."""
    text = template.format(**params)
    start, end = text.index("«"), text.index("»")
    return text.replace("«", "").replace("»", ""), text[start + 1:end]


def rule_params(rng: random.Random, w: World) -> dict[str, Any]:
    return {"peak": pick(rng, "7-10pm", "6-9pm", "8-11pm", "7:30-10:30pm", "6:30-9:30pm"), "shop": w.shop.name.split()[0],
            "owner": w.shop.owner, "table": pick(rng, "orders", "payments", "invoices", "order_items", "customers"),
            "branch": pick(rng, "main", "production", "master"), "dom": w.shop.domain, "wp": w.wp.name.split()[0],
            "fri": pick(rng, "3pm", "4pm", "5pm", "2pm"), "kb": rng.choice((150, 200, 250, 300)), "px": rng.choice((1200, 1600, 1800, 2000)),
            "prefix": w.shop.short.upper() + pick(rng, "", "W", "M"), "days": rng.choice((30, 45, 60, 90)), "nxt": w.next.name.split()[0]}


def swap_tail(text: str) -> str:
    return text[:-2] + text[-1] + text[-2]


def draw_correction(rng: random.Random, w: World, kind: str) -> dict[str, Any]:
    """A stale statement and the correction that replaces it: stale, value, their texts, query."""
    s, a, b = w.shop, w.shop.short, w.shop.short.upper()
    p: dict[str, Any] = {"owner": s.owner, "nxt": w.next.name.split()[0]}
    if kind == "db":
        base = f"{a}_{pick(rng, 'reports', 'analytics', 'archive', 'legacy')}"
        old, new = rng.choice((("prod", "live"), ("main", "master"), ("ro", "rw"), ("old", "bak")))
        p.update(s=f"{base}_{old}", v=f"{base}_{new}")
        st = ("reports ke liye alag DB hai — {s}, read-only user se connect karna", "CA wale export ke liye DB {s} use karna",
              "FYI analytics wala DB ka naam {s} hai")
        co = ("arre nahi, the DB is {v} not {s}", "galti se {s} bola tha, actual naam {v} hai", "DB ka naam {v} hai yaar, {s} nahi",
              "correction: reports DB = {v}")
        q = "What is the actual name of the reporting database?"
    elif kind == "port":
        x, y = rng.sample("123456789", 2)
        num = f"8{rng.randint(0, 9)}{x}{y}"
        p.update(s=f"port {num}", v=f"port {swap_tail(num)}", sa=num, sb=swap_tail(num))
        st = ("{nxt} ka staging instance pm2 pe {s} pe chal raha hai, nginx uspe point kar de", "preview server {s} pe hai, wahi use karna",
              "naya Next app {s} pe sun raha hai")
        co = ("{sa} nahi yaar, {v} hai", "sorry, {v}, not {sa}", "arre port galat bola — {sa} nahi, {sb} hai, {v}", "{sa} nahi, {sb} hai. {v} pe point karo")
        q = "Which port is the staging Next.js instance on?"
    elif kind == "branch":
        mmdd = f"{rng.randint(1, 9):02d}{rng.randint(1, 2)}{rng.randint(3, 9)}"
        p.update(s=f"release/{a}-{mmdd}", v=f"release/{a}-{swap_tail(mmdd)}")
        st = ("hotfix {s} branch pe hai, wahan se deploy karna", "QA ke liye branch {s} banayi hai", "client wala change {s} mein hai")
        co = ("branch ka naam galat likha tha — {v} hai", "{s} nahi, {v}. typo tha", "arre {v} wali branch, woh dusri nahi")
        q = "Which branch holds the release to deploy?"
    elif kind == "webhook":
        pre = pick(rng, "payments", "checkout", "api/payments", "rzp")
        old, new = rng.choice((("callback", "webhook"), ("notify", "events"), ("hook", "event"), ("capture", "confirm")))
        p.update(s=f"/{pre}/razorpay-{old}", v=f"/{pre}/razorpay-{new}")
        st = ("Razorpay dashboard mein webhook URL {s} set hai", "webhook endpoint {s} hai humara", "rzp ka webhook {s} pe aata hai")
        co = ("nahi yaar, dashboard mein {v} hai, maine galat dekha tha", "correction — webhook path {v} hai, {s} nahi", "{v}. {s} wala purana tha")
        q = "What is the Razorpay webhook path configured in the dashboard?"
    elif kind == "ip":
        c3, c4 = str(rng.randint(10, 99)), str(rng.randint(10, 99))
        while c3[0] + c4[1] == c3 and c4[0] + c3[1] == c4:
            c4 = str(rng.randint(10, 99))
        p.update(s=f"13.233.{c3}.{c4}", v=f"13.233.{c3[0]}{c4[1]}.{c4[0]}{c3[1]}")
        st = ("staging box ka IP {s} hai, RDS security group mein allow kar de", "naya Lightsail box {s} pe hai", "office ka static IP {s} hai, whitelist kar")
        co = ("IP galat diya tha, {v} hai", "{s} nahi — {v}. digits ulte the", "arre IP {v} hai, copy galat hua tha")
        q = "What IP should be allowed (the corrected one)?"
    elif kind == "table":
        word = pick(rng, "refund", "payout", "settlement", "dispute", "chargeback")
        p.update(s=f"rzp_{word}_logs", v=f"rzp_{word}s_log")
        st = ("refunds ka data {s} table mein jaata hai", "Sagar ne {s} naam ki table banayi thi, wahi use karna", "report {s} table se banta hai")
        co = ("table ka naam {v} hai, {s} nahi — check kar liya", "arre {v}, spelling alag hai", "{s} nahi re, {v}")
        q = "What is the Razorpay log table really called?"
    elif kind == "path":
        p.update(s=f"/var/www/{a}-shop-new", v=f"/var/www/{a}-shop-next")
        st = ("naya release folder {s} hai", "blue-green ke liye doosra folder {s} bana diya", "staging copy {s} mein rakhi hai")
        co = ("folder {v} hai, {s} nahi", "galat path bola — {v}", "path {v} hai yaar")
        q = "Which folder is the new release folder on the server?"
    elif kind == "coupon":
        fest, pct = pick(rng, "DIWALI", "HOLI", "RAKHI", "ONAM", "DUSSEHRA", "SANKRANT", "TRITIYA"), rng.choice((12, 15, 18, 20, 25))
        p.update(s=f"{fest}{pct}", v=f"{fest}-{pct}", pct=pct)
        st = ("{owner} ka naya coupon code {s} hai, {pct}% off", "sale ke liye coupon {s} banana hai", "coupon {s} create kar de admin mein")
        co = ("coupon {v} hai, hyphen ke saath. {s} nahi", "code galat bataya — {v}", "{v} hai, client ne poster pe yahi chhapa hai")
        q = "What is the exact coupon code for the sale?"
    elif kind == "email":
        yy = rng.randint(2021, 2024)
        p.update(s=f"accounts.{a}{yy}@gmail.com", v=f"accounts.{a}{yy + 1}@gmail.com", y=yy)
        st = ("CA ka email {s} hai, monthly GST report wahan bhejna", "reports {s} pe jaate hain", "export {s} ko mail kar dena")
        co = ("arre {y} wala purana hai, {v} pe bhejo", "email {v} hai, {s} band ho gaya", "CA ne naya id diya — {v}")
        q = "Which email address should the GST report go to?"
    elif kind == "cdn":
        base = "E" + rid(rng, 11, UPPER)
        x, y = rng.sample(UPPER, 2)
        p.update(s=base + x + y, v=base + y + x)
        st = ("media CDN ka distribution id {s} hai, invalidation usi pe karna", "CloudFront id {s} hai", "invalidate {s} pe karna")
        co = ("galat id di thi, {v} hai — last ke do letters ulte the", "distribution {v}, {s} nahi", "id {v} hai yaar")
        q = "What is the CloudFront distribution ID to invalidate?"
    elif kind == "client":
        other = rng.choice((w.wp, w.next))
        p.update(s=f"{s.name.split()[0]} wali site slow hai", v=f"the {other.name.split()[0]} site that's slow", a=s.name.split()[0])
        st = ("{s} since morning, dekh", "{s}, customers complain kar rahe", "{s} aaj, kuch karo")
        co = ("wrong client yaar — it's {v}, not {a}", "sorry, {a} nahi — {v}", "mix up ho gaya: {v}, {a} theek hai")
        q = "Which client's site is actually slow?"
    elif kind == "bucket":
        yy = rng.randint(22, 25)
        p.update(s=f"{a}-db-dumps-{yy}", v=f"{a}-mysql-archive-{rid(rng, 4).lower()}")
        st = ("DB dumps {s} bucket mein jaate hain", "backup bucket {s} hai", "dumps {s} mein rakhna")
        co = ("the other bucket I told you — {v}, not {s}", "galat bucket yaar, {v} wala", "bucket {v} hai, {s} khaali hai")
        q = "Which bucket should the DB dumps go to?"
    elif kind == "socket":
        p.update(s=f"/run/php/php8.3-fpm-{a}.sock", v=f"/run/php/{a}-pool-{rid(rng, 3).lower()}.sock")
        st = ("shop ka FPM pool alag socket pe hai: {s}", "fastcgi_pass {s} pe karna")
        co = ("socket {v} hai, pool ka naam badla tha", "{s} ab nahi hai, {v} use kar")
        q = "Which PHP-FPM socket does the shop pool use?"
    else:  # queue
        p.update(s=f"{a}-mails-high", v=f"notify-{b.lower()}-{rid(rng, 3).lower()}")
        st = ("order mails {s} queue pe jaate hain", "mails wala queue {s} hai")
        co = ("queue ka naam {v} hai, {s} purana hai", "{v} queue, not {s}")
        q = "Which queue do the order mails use?"
    return {"stale": p["s"], "value": p["v"], "stale_text": rng.choice(st).format(**p), "text": rng.choice(co).format(**p), "query": q}


NEAR = ("db", "port", "branch", "webhook", "ip", "table", "path", "coupon", "email", "cdn")
LOOSE = ("client", "bucket", "socket", "queue")

DECISIONS: dict[str, tuple[str, tuple[str, ...]]] = {
    "cache": ("cache driver", ("file cache for now", "Redis for cache and sessions", "database cache store")),
    "queue": ("queue backend", ("database queue driver", "Redis queues under Horizon", "SQS queues")),
    "payment": ("payment flow", ("Razorpay hosted checkout", "Razorpay Payment Links on WhatsApp", "Cashfree as backup gateway")),
    "frontend": ("cart UI", ("Livewire for the cart drawer", "plain Blade with Alpine sprinkles", "Inertia with Vue for checkout")),
    "hosting": ("storefront hosting", ("Vercel hobby plan", "pm2 on our own VPS", "AWS Amplify hosting")),
    "db": ("database hosting", ("RDS db.t4g.micro", "MySQL on the VPS itself", "RDS db.t4g.small with Multi-AZ")),
    "email": ("transactional email", ("Amazon SES in ap-south-1", "Zoho ZeptoMail", "Brevo free tier")),
    "search": ("product search", ("Meilisearch via Scout", "plain MySQL LIKE search", "Algolia free plan")),
    "cdn": ("CDN", ("CloudFront in front of the media bucket", "Cloudflare free plan", "BunnyCDN pull zone")),
    "monitoring": ("uptime monitoring", ("UptimeRobot 5-minute checks", "Better Stack heartbeats", "Oh Dear monitoring")),
    "backups": ("backup method", ("spatie backup to S3 nightly", "mysqldump plus rclone", "RDS snapshots only")),
    "wpcache": ("WordPress caching", ("WP Super Cache as is", "LiteSpeed Cache plugin", "nginx fastcgi_cache for WP")),
    "deploy": ("deploy method", ("Deployer from GitHub Actions", "Envoyer", "git pull script on the box")),
    "pdf": ("invoice PDFs", ("DomPDF for invoices", "Browsershot with headless Chrome", "wkhtmltopdf binary")),
    "otp": ("OTP provider", ("MSG91 for OTP", "Twilio Verify", "WhatsApp OTP through Gupshup")),
    "images": ("image resizing", ("Intervention on upload", "Lambda resize on S3 upload", "Cloudinary free tier")),
}
DECIDE = ("ok decided — {v}", "chalo, {v} final", "let's go with {v}", "{v} it is, bas", "soch liya: {v}", "theek hai, {v} karte hain",
          "for the {t}, {v}. done", "client se baat ho gayi, {v}", "mera vote {v} ke liye, go ahead", "{t} ke liye {v} rakhte hain",
          "decision: {v}. discuss nahi karna ab")
REVISE = ("scrap {s}, {v} it is", "change of plan yaar — {v}, not {s}", "chalo, {v} hi rakhte hain, {s} nahi", "{s} wala idea drop karo. {v} instead",
          "rethought it: {v}. forget {s}", "nahi yaar, {s} se problem hogi — {v} karte hain", "client ne mana kar diya {s} ke liye. {v} final")
DECIDE_WHY = ("", "", " — cost kam hai", ", client ko samjhana easy hai", ", maintenance kam", " kyunki humein hi sambhalna hai", ", baad mein dekhenge scale",
              ", {owner} bhi khush rahega", " (budget tight hai)")

PLAN_STEPS = {
    "migration": ("{table} ka backup lo", "migration chalao", "queue restart karo", "ek test order daalo checkout pe", "logs pe nazar rakho 15 min"),
    "cdn": ("naya bucket {bucket2} banao", "purani images sync karo", "CloudFront ka origin switch karo", "invalidate /* karo", "old bucket read-only kar do"),
    "php": ("staging pe naya FPM pool banao", "pest chalao wahan", "prod pool switch karo", "purana pool hatao"),
    "wp": ("UpdraftPlus backup lo", "WooCommerce update karo", "Elementor update karo", "checkout pe test order", "cache purge"),
    "next": ("build locally", "pm2 reload with --update-env", "CloudFront purge", "lighthouse dobara chalao"),
    "rds": ("RDS snapshot lo", "replica promote karo", "DB_HOST switch karo", "config:cache", "purana instance stop karo"),
    "webhook": ("webhook secret rotate karo", "staging pe test payment", "prod .env mein secret update", "failed webhooks replay karo"),
    "resize": ("maintenance mode on karo secret ke saath", "droplet ka snapshot lo", "resize to {size}", "services check karo", "maintenance off"),
    "logs": ("purane logs gzip karo", "unhe S3 pe bhejo", "logrotate conf fix karo", "disk check karo"),
    "coupon": ("coupon ka code review karo", "usage limit per customer daalo", "staging pe test", "raat {hour} baje prod pe"),
}
PLAN_FORMS = ("pehle {a}, phir {b}, phir {c}", "first {a}, then {b}, and only then {c}", "{a}, uske baad {b}, last mein {c}",
              "{a} → {b} → {c}", "step 1 {a}; step 2 {b}; step 3 {c}", "{a}, then {b}, phir {c}",
              "pehle {a}, {b} uske baad, aur end mein {c}", "{a} first. phir {b}. {c} sabse last", "pehle {a}; jab woh ho jaye tab {b}; phir {c}")
PLAN_TOPICS = {"migration": "the {table} migration", "cdn": "the CDN switch", "php": "the PHP-FPM pool change", "wp": "the WordPress updates",
               "next": "the storefront release", "rds": "the database move", "webhook": "the webhook secret rotation", "resize": "the server resize",
               "logs": "the log cleanup", "coupon": "the coupon launch"}
PLAN_SHORT = {"migration": "migration", "cdn": "CDN switch", "php": "FPM pool change", "wp": "WP updates", "next": "storefront release",
              "rds": "DB move", "webhook": "webhook secret rotation", "resize": "server resize", "logs": "log cleanup", "coupon": "coupon launch"}
PLAN_LEADS = ("ok plan:", "sun, aise karenge —", "kal ka plan:", "", "", "is order mein karna:", "plan simple hai:", "tonight:", "",
              "order yeh rakhna:", "aaj raat:")
PLAN_TAILS = ("", "", ". beech mein kuch fail ho toh ruk jaana", ". har step ke baad mujhe ping", ". jaldi nahi hai", ". client ko main bata dunga", ", ok?")


# --- planted facts: what the tools print --------------------------------------------------------------------------------

FIRST = ("sneha", "rahul", "pooja", "amit", "kavita", "nikhil", "shruti", "vikram", "anjali", "sachin", "meera", "tushar")
LAST = ("patil", "joshi", "kulkarni", "deshpande", "jadhav", "more", "gaikwad", "pawar", "shinde", "bhosale", "kale", "sawant")


def draw_identifier(rng: random.Random, w: World, kind: str) -> dict[str, Any]:
    s, b = w.shop, w.shop.short.upper()
    order = f"{b}-{rng.randint(90000, 99999)}"
    if kind == "pay":
        v = "pay_" + rid(rng, 14)
        text = pick(rng, f"order {order} ka payment {v} deduct hua but order pending dikha raha, customer 3 baar call kar chuka",
                    f"customer ne screenshot bheja: payment id {v}, paisa kata but order nahi bana. dekh kya hua")
        return {"value": v, "text": text, "query": "What is the Razorpay payment id of the customer's stuck order?", "tool": "mysql",
                "args": {"database": s.db, "host": w.host, "query": f"SELECT id, number, status, razorpay_payment_id FROM orders WHERE razorpay_payment_id = '{v}';"},
                "out": "Empty set (0.01 sec)"}
    if kind == "rzporder":
        v = "order_" + rid(rng, 14)
        text = pick(rng, f"Razorpay dashboard mein {v} 'attempted' dikha raha hai, humare side kya hua dekh",
                    f"rzp support bol raha {v} pe webhook fail hua, check kar")
        return {"value": v, "text": text, "query": "Which Razorpay order id did the user ask about?", "tool": "mysql",
                "args": {"database": s.db, "host": w.host, "query": f"SELECT id, number, status FROM orders WHERE razorpay_order_id = '{v}';"},
                "out": table(["id", "number", "status"], [[rng.randint(20000, 89999), order, "pending"]]) + "\n1 row in set (0.00 sec)"}
    if kind == "awb":
        v = str(rng.randint(10**12, 10**13 - 1))
        text = pick(rng, f"customer ka AWB {v} hai, tracking page pe kuch nahi dikh raha", f"AWB {v} wala parcel 5 din se same status pe hai, Shiprocket side dekh")
        return {"value": v, "text": text, "query": "What is the AWB number of the customer's shipment?", "tool": "ssh",
                "args": {"host": w.host, "user": "deploy", "command": f"grep -h {v} {s.path}/storage/logs/laravel-*.log | tail -n 20"}, "out": ""}
    if kind == "ticket":
        v = f"#{rid(rng, 2, 'ABCDEFGHJKLMNPRSTUVWXYZ')}-{rng.randint(100000, 999999)}"
        text = pick(rng, f"{w.provider} ka ticket {v} hai, reply karte waqt reference daalna", f"support ticket number {v} — usme graphs maang rahe hain")
        return {"value": v, "text": text, "query": "What is the hosting support ticket reference?", "tool": None}
    if kind == "invoice":
        v = f"{b}/24-25/{rng.randint(10, 99999):05d}"
        text = pick(rng, f"invoice {v} pe customer ka GSTIN galat chhap gaya, regenerate karna padega", f"CA bol raha {v} wali invoice ka total match nahi ho raha")
        return {"value": v, "text": text, "query": "Which invoice number needs to be fixed?", "tool": None}
    if kind == "gstin":
        v = f"27{rid(rng, 5, 'ABCDEFGHJKLMNPQRSTUVWXYZ')}{rng.randint(1000, 9999)}{rid(rng, 1, 'ABCDEFGHJKLMNPQRSTUVWXYZ')}1Z{rng.randint(1, 9)}"
        text = pick(rng, f"is customer ka GSTIN {v} hai, account mein update kar de aur last invoice dobara bana", f"B2B customer ka GSTIN: {v}. invoices pe aana chahiye")
        return {"value": v, "text": text, "query": "What is the B2B customer's GSTIN?", "tool": None}
    v = f"{rng.choice(FIRST)}.{rng.choice(LAST)}{rng.randint(70, 99)}@{pick(rng, 'gmail.com', 'yahoo.co.in', 'rediffmail.com', 'outlook.com')}"
    text = pick(rng, f"ye customer {v} bol rahi hai OTP nahi aaya, uska account dekh", f"{v} ka account lock ho gaya kya? 4 baar complain kiya")
    return {"value": v, "text": text, "query": "Which customer email had the login/OTP problem?", "tool": "mysql",
            "args": {"database": s.db, "host": w.host, "query": f"SELECT id, email, locked_until, otp_attempts FROM users WHERE email = '{v}';"},
            "out": table(["id", "email", "locked_until", "otp_attempts"], [[rng.randint(100, 9000), v, ts(w.clock + timedelta(minutes=20)), rng.randint(4, 9)]]) + "\n1 row in set (0.00 sec)"}


USER_IDS = ("pay", "rzporder", "awb", "ticket", "invoice", "gstin", "email")
TOOL_IDS = ("failedjob", "run", "rds", "commit", "orderpay", "invalidation")


def draw_tool_identifier(c: Ctx, kind: str) -> dict[str, Any]:
    rng, w, s = c.rng, c.w, c.w.shop
    if kind == "failedjob":
        v = uuid(rng)
        job = pick(rng, "App\\Jobs\\GenerateInvoicePdf", "App\\Mail\\OrderShipped", "App\\Jobs\\CaptureRazorpayPayment")
        return {"value": v, "ask": pick(rng, "invoice/mail wali job fail hui kya? failed list dekh", "failed jobs mein aaj ka kuch hai kya?"),
                "tool": "artisan", "args": {"command": "queue:failed", "cwd": s.path, "host": w.host}, "out": failed_jobs(rng, w, (v, job)),
                "query": f"What is the UUID of today's failed {job.split(chr(92))[-1]} job?", "note": "The one from today is {v}; I'll retry only that one."}
    if kind == "run":
        v = str(rng.randint(9 * 10**9 + 1, 9 * 10**9 + 10**8))
        lines = gh_run_list(rng, w, s).split("\n")
        lines.insert(1, f"X       {'fix: invoice number sequence':<44} {'Deploy':<11} {'main':<8} {'push':<6} {v:<12} 4m12s   about 1 hour ago")
        return {"value": v, "ask": pick(rng, "deploy fail hua kya aaj? list dekh", "CI ki list dikha, kuch red hai kya"), "tool": "gh",
                "args": {"args": "run list --limit 20", "repo": s.repo}, "out": "\n".join(lines), "query": "What is the id of the failed deploy run?",
                "note": "The red one is the deploy of the invoice-sequence fix, run {v}."}
    if kind == "rds":
        v = f"{s.short}-prod-db.{rid(rng, 12, 'abcdefghijklmnopqrstuvwxyz0123456789')}.ap-south-1.rds.amazonaws.com"
        out = "\n".join([f'media_bucket = "{w.bucket}"', f'cdn_domain = "d{rid(rng, 13).lower()}.cloudfront.net"', f'rds_endpoint = "{v}"',
                         'rds_port = 3306', f'vps_ip = "{w.ip}"'])
        return {"value": v, "ask": "RDS ka endpoint kya hai? terraform se nikal", "tool": "terraform", "args": {"dir": "~/infra/aws", "command": "output"},
                "out": out, "query": "What is the RDS endpoint hostname?", "note": "There it is — rds_endpoint in the outputs."}
    if kind == "commit":
        v = hexs(rng, 40)
        log = git_log(rng, w, c.want()).split("\n")
        cut = min(len(log), 7 * rng.randint(1, 4))
        planted = [f"commit {v}", "Author: Sagar (freelance) <sagar.dev@agency.local>", f"Date:   {(w.clock - timedelta(days=rng.randint(20, 90))).strftime('%a %b %d %H:%M:%S %Y')} +0530",
                   "", "    quick fix stock decrement (no lock)", ""]
        log[cut:cut] = planted
        return {"value": v, "ask": "stock negative wala bug kab aaya? git log dekh", "tool": "shell",
                "args": {"command": "git log -n 60", "cwd": f"~/clients/{s.short}-shop"}, "out": "\n".join(log),
                "query": "Which commit introduced the stock decrement without a lock?", "note": "Found it: Sagar's 'quick fix stock decrement (no lock)' commit."}
    if kind == "orderpay":
        v = "pay_" + rid(rng, 14)
        num = f"{s.short.upper()}-{rng.randint(90000, 99999)}"
        row = [rng.randint(20000, 89999), num, "paid", f"{rng.randint(500, 90000)}.00", v, ts(w.clock - timedelta(hours=3))]
        return {"value": v, "ask": f"order {num} ka payment id kya hai? customer refund maang raha", "tool": "mysql",
                "args": {"database": s.db, "host": w.host, "query": "SELECT id, number, status, grand_total, razorpay_payment_id, created_at FROM orders ORDER BY id DESC LIMIT 300;"},
                "out": orders_table(rng, w, c.want(), row), "query": f"What is the Razorpay payment id of order {num}?",
                "note": f"{num} is in there, paid; its payment id is the one to refund."}
    v = "I" + rid(rng, 13, UPPER)
    out = json.dumps({"Location": f"https://cloudfront.amazonaws.com/2020-05-31/distribution/E{rid(rng, 13, UPPER)}/invalidation/{v}",
                      "Invalidation": {"Id": v, "Status": "InProgress", "CreateTime": w.clock.strftime("%Y-%m-%dT%H:%M:%S.000000+00:00"),
                                       "InvalidationBatch": {"Paths": {"Quantity": 1, "Items": ["/*"]}, "CallerReference": f"cli-{rng.randint(10**9, 10**10)}"}}}, indent=4)
    return {"value": v, "ask": "CloudFront purge kar de media ka", "tool": "shell",
            "args": {"command": "aws cloudfront create-invalidation --distribution-id $MEDIA_CDN_ID --paths '/*'"}, "out": out,
            "query": "What is the id of the CloudFront invalidation that was created?", "note": "Invalidation submitted; status InProgress."}


FAIL_JOBS = ("PushOrderToTally", "FetchGoldRateFromIbja", "ImportMeeshoOrders", "SendWhatsappReceipt", "RecalcGstOnReturns",
             "SyncDelhiveryPincodes", "BuildGoogleMerchantFeed", "ExpireHeldStock")
BIG_TABLES = ("telescope_entries", "activity_log", "shiprocket_webhook_dumps", "audit_trails", "search_logs", "cart_snapshots")
HOG_DIRS = ("exports-tmp", "invoice-cache", "csv-imports", "pdf-scratch", "old-media-sync", "backup-staging")
FINDINGS = ("slowq", "failjob", "mempeak", "count502", "lighthouse", "rows", "redispeak", "disk", "certdays", "bigtable", "hammer", "backlog",
            "stuck")
POINT_BACK = ("That's the one killing it.", "That one is the culprit", "The line I flagged above is what matters here",
              "See the entry in the middle of that output; that's our problem", "That number explains the complaints", "Yeh wala hi problem hai",
              "That's clearly the outlier", "There it is", "That's what I was looking for")
POINT_TAIL = ("", ".", " — the rest is noise.", ", nothing else in there stands out.", ". Matches what the client described.", " 👆", ", see above.",
              " (the {nth} line from the top).", ". Everything around it is normal.")
FINDING_WHAT = {"slowq": "slow log", "failjob": "worker output", "mempeak": "status output", "count502": "status-code count", "lighthouse": "report",
                "rows": "EXPLAIN", "redispeak": "INFO dump", "disk": "du listing", "certdays": "cert list", "bigtable": "size table", "hammer": "IP count",
                "backlog": "monitor output", "stuck": "tinker result"}
QUOTE_BACK = ("{v} — that's the one killing it.", "Key number: {v}.", "The outlier is {v}.", "Look at {v}; that explains it.",
              "So: {v}. That's what the client is feeling.")


def draw_finding(c: Ctx, kind: str) -> dict[str, Any]:
    rng, w, s = c.rng, c.w, c.w.shop
    want = c.want()
    if kind == "slowq":
        v = f"Query_time: {rng.randint(11, 48)}.{rng.randint(0, 999999):06d}"
        return {"value": v, "ask": pick(rng, "orders page admin mein 20 sec le raha, slow log dekh", "DB slow hai kya? slow log nikal"),
                "tool": "ssh", "args": ssh(c, "sudo tail -n 400 /var/log/mysql/mysql-slow.log"), "out": slow_log(rng, w, want, v),
                "query": "How long did the worst query in the slow log take?"}
    if kind == "failjob":
        job = "App\\Jobs\\" + w.unique(lambda: rng.choice(FAIL_JOBS))
        out = queue_work(rng, w, want).split("\n")
        t = w.clock - timedelta(minutes=rng.randint(1, 50))
        for _ in range(rng.randint(2, 4)):
            t += timedelta(seconds=rng.randint(5, 90))
            out.insert(rng.randint(3, len(out)), f"  {ts(t)} {job} {'.' * max(3, 70 - len(job))} {rng.randint(1, 30)}s FAIL")
        return {"value": job, "ask": pick(rng, "queue mein kuch fail ho raha baar baar? worker chala ke dekh", "jobs atak rahe hain, dekh kaunsa"),
                "tool": "artisan", "args": {"command": "queue:work redis --stop-when-empty", "cwd": s.path, "host": w.host}, "out": "\n".join(out),
                "query": "Which job class keeps failing in the queue?"}
    if kind == "mempeak":
        v = f"peak: {rng.randint(2, 7)}.{rng.randint(10, 99)}G"
        out = systemctl_status(rng, w, "php8.3-fpm").split("\n")
        out = [f"     Memory: {rng.randint(1, 2)}.{rng.randint(0, 9)}G ({v})" if x.startswith("     Memory:") else x for x in out]
        return {"value": v, "ask": "RAM kaun kha raha? fpm ka status dekh", "tool": "ssh", "args": ssh(c, "systemctl status php8.3-fpm --no-pager"),
                "out": "\n".join(out), "query": "What was php-fpm's peak memory?"}
    if kind == "count502":
        n = rng.randint(1100, 9999)
        v = f"{n} 502"
        rows = sorted([(rng.randint(20000, 90000), 200), (rng.randint(1000, 9000), 304), (rng.randint(100, 900), 404), (n, 502),
                       (rng.randint(50, 900), 301), (rng.randint(10, 400), 499), (rng.randint(5, 90), 504)], reverse=True)
        out = "\n".join(f"{a:>7} {b}" for a, b in rows)
        return {"value": v, "ask": pick(rng, "kal raat 502 kitne aaye the?", "status codes ka breakdown de access log se"), "tool": "ssh",
                "args": ssh(c, f"sudo awk '{{print $9}}' /var/log/nginx/{s.short}.access.log.1 | sort | uniq -c | sort -rn"), "out": out,
                "query": "How many 502 responses were in yesterday's access log?"}
    if kind == "lighthouse":
        v = f"Performance: {rng.randint(18, 49)}"
        site = rng.choice(w.sites())
        url = f"https://{site.domain}/{pick(rng, '', 'products/' + rng.choice(SLUGS), 'collections/sale')}"
        return {"value": v, "ask": f"{site.name.split()[0]} ka mobile score kitna hai? lighthouse chala", "tool": "shell",
                "args": {"command": f"npx lighthouse {url} --form-factor=mobile --output=text --quiet"}, "out": lighthouse(rng, url, v),
                "query": f"What mobile performance score did Lighthouse give {site.name}?"}
    if kind == "rows":
        v = str(rng.randint(3_000_000, 9_800_000))
        return {"value": v, "ask": "admin orders listing ka query explain kar", "tool": "mysql",
                "args": {"database": s.db, "host": w.host, "query": "EXPLAIN " + SLOW_SQL[0].format(d="2026-01-01", n=0, q="")},
                "out": explain(rng, v), "query": "How many rows does the orders listing query scan?"}
    if kind == "redispeak":
        v = f"used_memory_peak_human:{rng.randint(1, 3)}.{rng.randint(10, 99)}G"
        out = redis_info(rng, want).split("\n")
        out.insert(3, v)
        return {"value": v, "ask": "redis ki memory kitni jaati hai peak pe?", "tool": "ssh", "args": ssh(c, "redis-cli info memory"),
                "out": "\n".join(out), "query": "What was Redis's peak memory?"}
    if kind == "disk":
        d = w.unique(lambda: rng.choice(HOG_DIRS))
        v = f"{s.path}/storage/app/{d}"
        rows = [f"{rng.randint(10, 900)}M\t{s.path}/storage/{x}" for x in ("framework", "logs", "debugbar", "app/public")]
        rows.append(f"{rng.randint(18, 60)}G\t{v}")
        rows += [f"{rng.randint(1, 9)}.{rng.randint(0, 9)}G\t{s.path}/storage/app/{x}" for x in ("media", "invoices")]
        return {"value": v, "ask": "disk 90% ho gaya, kaunsa folder bhara hai dekh", "tool": "ssh",
                "args": ssh(c, f"sudo du -sh {s.path}/storage/* {s.path}/storage/app/* | sort -h"), "out": "\n".join(sorted(rows, key=len)),
                "query": "Which directory is filling up the disk?"}
    if kind == "certdays":
        d = rng.randint(2, 9)
        v = f"(VALID: {d} days)"
        out = certbot(rng, w, [x.domain for x in w.sites()], dry=False).split("\n")
        k = rng.choice([i for i, x in enumerate(out) if "VALID:" in x])
        out[k] = out[k].split("(VALID:")[0] + v
        return {"value": v, "ask": "SSL expiry wala mail aaya hai, certs dekh", "tool": "ssh", "args": ssh(c, "sudo certbot certificates"),
                "out": "\n".join(out), "query": "How many days were left on the expiring certificate?"}
    if kind == "bigtable":
        v = w.unique(lambda: rng.choice(BIG_TABLES))
        rows = [[t, rng.randint(2, 900), rng.randint(1000, 900000)] for t in ("orders", "order_items", "products", "sessions", "jobs", "failed_jobs")]
        rows.append([v, rng.randint(4000, 19000), rng.randint(2_000_000, 30_000_000)])
        rows.sort(key=lambda r: -r[1])
        return {"value": v, "ask": "DB itna bada kyun ho gaya? tables ka size dekh", "tool": "mysql",
                "args": {"database": s.db, "host": w.host, "query": "SELECT table_name, ROUND((data_length+index_length)/1024/1024) AS mb, table_rows "
                         f"FROM information_schema.tables WHERE table_schema = '{s.db}' ORDER BY mb DESC;"},
                "out": table(["table_name", "mb", "table_rows"], rows) + f"\n{len(rows)} rows in set (0.02 sec)", "query": "Which table takes up most of the database?"}
    if kind == "hammer":
        v = f"185.{rng.randint(100, 250)}.{rng.randint(1, 254)}.{rng.randint(1, 254)}"
        rows = sorted([(rng.randint(5000, 40000), v)] + [(rng.randint(10, 900), client_ip(rng)) for _ in range(9)], reverse=True)
        return {"value": v, "ask": "login pe bahut hits aa rahe, kaun hai dekh", "tool": "ssh",
                "args": ssh(c, f"sudo grep 'POST /login' /var/log/nginx/{s.short}.access.log | awk '{{print $1}}' | sort | uniq -c | sort -rn | head"),
                "out": "\n".join(f"{a:>7} {b}" for a, b in rows), "query": "Which IP is hammering the login endpoint?"}
    if kind == "backlog":
        n = rng.randint(2000, 40000)
        v = f"[{n:,}] ALERT"
        out = "\n".join(["", f"  [redis] default {'.' * 60} {v}", f"  [redis] mails {'.' * 62} [{rng.randint(0, 90)}] OK",
                         f"  [redis] webhooks {'.' * 59} [{rng.randint(0, 40)}] OK", ""])
        return {"value": v, "ask": "queue mein kitna backlog hai?", "tool": "artisan",
                "args": {"command": "queue:monitor redis:default,redis:mails,redis:webhooks --max=500", "cwd": s.path, "host": w.host}, "out": out,
                "query": "How big was the default queue backlog?"}
    n = rng.randint(300, 4000)
    v = f'"stuck_pending" => {n}'
    out = "\n".join([f"Psy Shell v0.12.3 (PHP 8.3.{rng.randint(2, 9)} — cli) by Justin Hileman",
                     "> ['stuck_pending' => Order::where('status','pending')->where('created_at','<',now()->subDay())->count(), 'paid_today' => Order::whereDate('paid_at', today())->count()]",
                     "= [", f"    {v},", f"    \"paid_today\" => {rng.randint(3, 90)},", "  ]"])
    return {"value": v, "ask": "kitne orders pending mein atke hain 1 din se?", "tool": "artisan", "args": {"command": "tinker", "cwd": s.path, "host": w.host},
            "out": out, "query": "How many orders were stuck in pending for over a day?"}


GST_PROPS = ("compareAtPrice", "mrpInPaise", "hsnCode", "giftWrapFee", "codFee", "huidNumber", "makingCharges", "sizeChartUrl", "returnWindowDays")
BAD_METHODS = ("markAsShiped", "refundPartialy", "syncAwbNumer", "applyCouponOnse", "calcMakingCharge", "recordHuid", "sendGstInvocie")
DUP_COLS = ("rzp_refund_id", "hallmark_huid", "cod_fee_paise", "tally_voucher_no", "whatsapp_opt_in", "pickup_slot", "loyalty_points")
TEST_CASES = ("it caps cod at {n} rupees", "it rounds gst on {n} line items", "it refuses coupon reuse after {n} orders",
              "it holds stock for {n} minutes", "it adds making charges above {n} grams", "it blocks checkout for pincode {p}")
WP_FUNCS = ("wc_get_product_legacy", "ds_render_sweet_box", "sc_menu_price_table", "bo_lens_picker", "ac_batch_calendar", "wpx_whatsapp_button")
ERRORS = ("laravel", "nginx", "mysqldup", "deadlock", "bucket", "typeerror", "phpstan", "ghexit", "migrate", "pest", "phpunit", "fpmjournal", "wpfatal")
RESOLVABLE = ("laravel", "nginx", "mysqldup", "bucket", "typeerror", "phpstan", "ghexit", "migrate", "pest", "phpunit", "wpfatal")


def draw_error(c: Ctx, kind: str) -> dict[str, Any]:
    """An error line planted in a tool's output, and (where it can be) the clean output of the same command run later."""
    rng, w, s = c.rng, c.w, c.w.shop
    want = c.want()
    t = w.clock - timedelta(minutes=rng.randint(2, 90), seconds=rng.randint(0, 59))
    if kind == "laravel":
        p = "pay_" + rid(rng, 14)
        v = pick(rng, f"[{ts(t)}] production.ERROR: SQLSTATE[23000]: Integrity constraint violation: 1062 Duplicate entry '{p}' for key "
                 f"'payments.payments_razorpay_payment_id_unique' (Connection: mysql, SQL: insert into `payments` (`order_id`, `razorpay_payment_id`, "
                 f"`amount`) values ({rng.randint(20000, 89999)}, {p}, {rng.randint(300, 90000)}00))",
                 f"[{ts(t)}] production.ERROR: Razorpay webhook signature mismatch {{\"event\":\"payment.captured\",\"payment_id\":\"{p}\",\"ip\":\"{client_ip(rng)}\"}}",
                 f"[{ts(t)}] production.ERROR: Shiprocket AWB assignment failed for order {s.short.upper()}-{rng.randint(90000, 99999)}: "
                 f"courier_company_id {rng.randint(10, 99)} not serviceable for pincode {rng.choice(PINS)}")
        cmd = ssh(c, f"tail -n 300 {s.path}/storage/logs/laravel-{w.clock.strftime('%Y-%m-%d')}.log")
        block = [v, "[stacktrace]", *stacktrace(rng, s, "http"), '"} ']
        return {"value": v, "ask": pick(rng, "checkout pe payment ke baad error aa raha, log dekh", "payments fail ho rahe kya? log nikal"), "tool": "ssh",
                "args": cmd, "out": laravel_log(rng, w, s, want, block, errors=0.05), "rerun": lambda: laravel_log(rng, w, s, c.want(), errors=0.0),
                "query": "What error did the shop log show for the payment/checkout problem?"}
    if kind == "nginx":
        v = (f"{t.strftime('%Y/%m/%d %H:%M:%S')} [error] {rng.randint(700, 3000)}#{rng.randint(700, 3000)}: *{rng.randint(10**6, 10**7)} upstream timed out "
             f"(110: Connection timed out) while reading response header from upstream, client: {client_ip(rng)}, server: {s.domain}, request: "
             f"\"POST /checkout/{pick(rng, 'verify', 'place', 'razorpay/callback')} HTTP/2.0\", upstream: \"fastcgi://unix:/run/php/php8.3-fpm.sock:\", host: \"{s.domain}\"")
        cmd = ssh(c, f"sudo tail -n 200 /var/log/nginx/{s.short}.error.log")
        return {"value": v, "ask": "checkout pe 504 aaya customer ko, nginx error log dekh", "tool": "ssh", "args": cmd,
                "out": nginx_errors(rng, w, s, want, v), "rerun": lambda: nginx_errors(rng, w, s, c.want()),
                "query": "What nginx error line showed the checkout timeout?"}
    if kind == "mysqldup":
        v = f"ERROR 1062 (23000) at line {rng.randint(12, 900)}: Duplicate entry '{s.short.upper()}-{rng.randint(90000, 99999)}' for key 'orders.orders_number_unique'"
        args = {"database": s.db, "host": w.host, "query": "source /home/deploy/sql/backfill_order_numbers.sql"}
        ok = lambda: "\n".join(f"Query OK, {rng.randint(0, 400)} rows affected ({rng.random():.2f} sec)\nRows matched: {rng.randint(0, 400)}  Changed: {rng.randint(0, 400)}  Warnings: 0"  # noqa: E731
                               for _ in range(rng.randint(3, 9)))
        return {"value": v, "ask": "order number backfill script chala de", "tool": "mysql", "args": args, "out": ok() + "\n" + v, "rerun": ok,
                "query": "What error stopped the order-number backfill?"}
    if kind == "deadlock":
        v = f"ERROR 1213 (40001) at line {rng.randint(2, 400)}: Deadlock found when trying to get lock; try restarting transaction"
        args = {"database": s.db, "host": w.host, "query": "source /home/deploy/sql/reprice_silver.sql"}
        out = "\n".join(f"Query OK, {rng.randint(1, 90)} rows affected ({rng.random():.2f} sec)" for _ in range(rng.randint(2, 12))) + "\n" + v
        return {"value": v, "ask": "silver ka reprice script chala de prod pe", "tool": "mysql", "args": args, "out": out, "rerun": None,
                "query": "What error did the repricing script hit?"}
    if kind == "bucket":
        name = f"{s.short}-{pick(rng, 'invoices', 'exports', 'assets', 'static')}-{rid(rng, 4).lower()}"
        v = f"Error: creating S3 Bucket ({name}): BucketAlreadyExists: The requested bucket name is not available."
        planted = [v, f"\tstatus code: 409, request id: {rid(rng, 16, UPPER)}, host id: {rid(rng, 40)}"]
        return {"value": v, "ask": "naya bucket terraform se bana de invoices ke liye, apply kar", "tool": "terraform",
                "args": {"dir": "~/infra/aws", "command": "apply -no-color"}, "out": terraform_plan(rng, w, want, apply=True, planted=planted),
                "rerun": lambda: terraform_plan(rng, w, c.want(), apply=True), "query": "Why did the terraform apply fail?"}
    if kind == "typeerror":
        prop = w.unique(lambda: rng.choice(GST_PROPS))
        typ = pick(rng, "Product", "ProductCardProps", "CartLine", "CheckoutSummaryProps")
        v = f"Type error: Property '{prop}' does not exist on type '{typ}'."
        return {"value": v, "ask": "storefront ka build fail ho raha CI mein, local pe chala ke dekh", "tool": "shell",
                "args": {"command": "npm run build", "cwd": f"~/clients/{w.next.short}-storefront"}, "out": next_build(rng, w, want, [v]),
                "rerun": lambda: next_build(rng, w, c.want()), "query": "What type error broke the storefront build?"}
    if kind == "phpstan":
        m = w.unique(lambda: rng.choice(BAD_METHODS))
        v = f"app/{pick(rng, 'Services/Fulfilment/ShipOrder.php', 'Http/Controllers/Admin/OrderController.php', 'Listeners/MarkOrderShipped.php')}:{rng.randint(20, 300)}:Call to an undefined method App\\Models\\Order::{m}()."
        lines = [f"app/{pick(rng, 'Models/Order.php', 'Services/Tax/LineTotals.php', 'Http/Controllers/CartController.php')}:{rng.randint(10, 400)}:{rng.choice(PHPSTAN_MSGS)}"
                 for _ in range(rng.randint(4, 30))]
        lines.insert(rng.randint(0, len(lines)), v)
        args = {"command": "./vendor/bin/phpstan analyse --error-format=raw --no-progress", "cwd": f"~/clients/{s.short}-shop"}
        return {"value": v, "ask": "phpstan raw format mein chala, CI mein fail ho raha", "tool": "shell", "args": args, "out": "\n".join(lines),
                "rerun": lambda: "\n".join(f"app/Models/Order.php:{rng.randint(10, 400)}:{rng.choice(PHPSTAN_MSGS)}" for _ in range(rng.randint(2, 9))),
                "query": "Which PHPStan error points at a misspelled method?"}
    if kind == "ghexit":
        v = f"deploy\tDeploy to server\t{t.strftime('%Y-%m-%dT%H:%M:%S')}.{rng.randint(0, 9999999):07d}Z ##[error]Process completed with exit code {rng.choice((1, 2, 127, 255))}."
        run = rng.randint(8 * 10**9, 9 * 10**9)
        return {"value": v, "ask": "deploy workflow red hai, log dekh", "tool": "gh", "args": {"args": f"run view {run} --log-failed", "repo": s.repo},
                "out": gh_run_log(rng, w, s, want, v), "rerun": lambda: gh_run_log(rng, w, s, c.want()),
                "query": "What did the failing deploy step end with?"}
    if kind == "migrate":
        col = w.unique(lambda: rng.choice(DUP_COLS))
        tbl = pick(rng, "orders", "order_items", "products", "customers")
        v = f"SQLSTATE[42S21]: Column already exists: 1060 Duplicate column name '{col}' (Connection: mysql, SQL: alter table `{tbl}` add `{col}` varchar(255) null)"
        names = migration_names(rng, w, rng.randint(1, 3))
        return {"value": v, "ask": "staging pe migrate chala de", "tool": "artisan", "args": {"command": "migrate --force", "cwd": s.path, "env": "staging"},
                "out": migrate_out(rng, w, names[:-1], ["   Illuminate\\Database\\QueryException ", "", v]),
                "rerun": lambda: migrate_out(rng, w, names), "query": "What error stopped the staging migration?"}
    if kind in ("pest", "phpunit"):
        case = w.unique(lambda: rng.choice(TEST_CASES).format(n=rng.randint(2, 60), p=rng.choice(PINS)))
        file = rng.choice(TEST_FILES)
        if kind == "pest":
            v = f"FAILED  Tests\\Feature\\{file} > {case}"
            block = ["  " + "─" * 60, v, f"  Failed asserting that {rng.randint(100, 999)} is identical to {rng.randint(100, 999)}.", "",
                     f"  at tests/Feature/{file}.php:{rng.randint(20, 200)}", f"    {rng.randint(20, 200)}▕     expect($response->status())->toBe(422);"]
            return {"value": v, "ask": "pest chala, kuch toota toh nahi?", "tool": "artisan", "args": {"command": "test", "cwd": f"~/clients/{s.short}-shop"},
                    "out": pest_run(rng, w, want, [block]), "rerun": lambda: pest_run(rng, w, c.want()), "query": "Which Pest test failed?"}
        snake = "test_" + case.removeprefix("it ").replace(" ", "_")
        v = f"1) Tests\\Feature\\{file}::{snake}"
        return {"value": v, "ask": "phpunit wala suite chala feature tests ka", "tool": "artisan",
                "args": {"command": "test --testsuite=Feature", "cwd": f"~/clients/{s.short}-shop"}, "out": phpunit_run(rng, w, [v[3:]]),
                "rerun": lambda: phpunit_run(rng, w), "query": "Which PHPUnit test failed?"}
    if kind == "fpmjournal":
        n = rng.choice((12, 16, 20, 24, 30))
        v = (f"{t.strftime('%b %d %H:%M:%S')} {w.host} php-fpm8.3[{rng.randint(600, 9000)}]: [{t.strftime('%d-%b-%Y %H:%M:%S')}] WARNING: "
             f"[pool www] server reached pm.max_children setting ({n}), consider raising it")
        lines = systemctl_status(rng, w, "php8.3-fpm").split("\n")
        lines.insert(len(lines) - rng.randint(0, 3), v)
        return {"value": v, "ask": "fpm ka journal dekh, kuch warning?", "tool": "ssh", "args": ssh(c, "journalctl -u php8.3-fpm -n 60 --no-pager"),
                "out": "\n".join(lines), "rerun": None, "query": "What warning did php-fpm log?"}
    fn = w.unique(lambda: rng.choice(WP_FUNCS))
    plug = pick(rng, "ds-custom-blocks", "theme-helpers", "woo-extra-fields", "legacy-shortcodes")
    v = f"PHP Fatal error:  Uncaught Error: Call to undefined function {fn}() in {w.wp.path}/wp-content/plugins/{plug}/includes/render.php:{rng.randint(20, 400)}"
    out = "\n".join([v, "Stack trace:", f"#0 {w.wp.path}/wp-includes/shortcodes.php(433): {plug.replace('-', '_')}_render(Array, '', '{plug}')",
                     "#1 [internal function]: do_shortcode_tag(Array)", f"#2 {w.wp.path}/wp-includes/shortcodes.php(273): preg_replace_callback('/\\\\[(\\\\[?)(ds_b...', 'do_shortcode_ta...', '<!-- wp:shortcod...')",
                     "#3 {main}", f"  thrown in {w.wp.path}/wp-content/plugins/{plug}/includes/render.php on line {rng.randint(20, 400)}",
                     "Error: There has been a critical error on this website."])
    return {"value": v, "ask": f"{w.wp.name.split()[0]} ki site pe critical error aa raha, wp-cli se dekh", "tool": "ssh",
            "args": ssh(c, f"cd {w.wp.path} && wp eval 'echo do_shortcode(\"[{plug.replace('-', '_')}]\");'"), "out": out,
            "rerun": lambda: f"<div class=\"{plug}\">…</div>\nSuccess: rendered {rng.randint(2, 40)} blocks.", "query": "What fatal error did the WordPress site throw?"}


EXPLAIN = {
    "laravel": ("The payment path is failing in the app itself, not in nginx: the log line above is the request that broke, and the trace goes "
                "through the checkout controller.", "So the checkout request dies inside Laravel; the stack trace points at our payment handling."),
    "nginx": ("nginx gave up waiting for PHP-FPM on the checkout POST, which is why the customer saw a 504.",
              "The upstream (PHP-FPM) didn't answer in time for that checkout request."),
    "mysqldup": ("The backfill tries to give two orders the same number; the unique key stops it half-way.",),
    "deadlock": ("The repricing update collided with live checkouts decrementing stock; MySQL killed our transaction.",),
    "bucket": ("S3 bucket names are global and someone else already owns that one, so terraform can't create it.",),
    "typeerror": ("The storefront code uses a field the TypeScript type doesn't declare, so next build stops at type checking.",),
    "phpstan": ("PHPStan caught a call to a method that doesn't exist on the Order model — looks like a typo in the name.",),
    "ghexit": ("The deploy step's SSH script exited non-zero, so the job went red after the tests had passed.",),
    "migrate": ("The migration adds a column that is already there on staging, so it aborts.",),
    "pest": ("One Pest test fails; the rest of the suite is green.",),
    "phpunit": ("One feature test fails; everything else passes.",),
    "fpmjournal": ("PHP-FPM ran out of worker processes at that moment; requests queue up behind it.",),
    "wpfatal": ("A plugin shortcode calls a function that no longer exists, which kills the page render.",),
}
CAT_OF = {"laravel": "errors", "nginx": "errors", "mysqldup": "db", "deadlock": "db", "bucket": "infra", "typeerror": "next", "phpstan": "tests",
          "ghexit": "deploy", "migrate": "tests", "pest": "tests", "phpunit": "tests", "fpmjournal": "health", "wpfatal": "wp",
          "slowq": "db", "failjob": "queue", "mempeak": "health", "count502": "slow", "lighthouse": "next", "rows": "db", "redispeak": "health",
          "disk": "health", "certdays": "ssl", "bigtable": "db", "hammer": "slow", "backlog": "queue", "stuck": "db",
          "failedjob": "queue", "run": "deploy", "rds": "infra", "commit": "code", "orderpay": "db", "invalidation": "infra",
          "migration": "code", "job": "code", "middleware": "code", "command": "code", "snippet": "config", "tf": "infra", "tsx": "next",
          "blade": "code", "workflow": "deploy", "supervisor": "queue", "muplugin": "wp", "config": "config", "logrotate": "health"}
ID_ANSWERS = {
    "pay": "No order on our side carries that payment id, so the money was captured at Razorpay but our webhook never recorded it. "
           "I'll match it by amount and time next.",
    "rzporder": "That Razorpay order maps to a pending order here; the payment never completed, so the customer wasn't charged.",
    "awb": "The shipment was created fine, but the tracking sync has returned no scans twice — it's stuck at the courier's end, not ours.",
    "email": "The account is locked after too many OTP attempts; the lock lapses in about twenty minutes, or I can clear it now.",
}


def humanize(name: str) -> str:
    return "".join(" " + ch.lower() if ch.isupper() else ch for ch in name).strip()


FILE_KINDS = ("migration", "job", "middleware", "command", "snippet", "tf", "tsx", "blade", "workflow", "supervisor", "muplugin", "config",
              "logrotate")
NEW_COLS = ("gstin_verified_at", "awb_synced_at", "return_reason", "gift_message", "invoice_sent_at", "cod_verified_by", "ibja_rate_id")
JOB_VERBS = ("Sync", "Reconcile", "Archive", "Notify", "Recalculate", "Prune")
JOB_OBJECTS = ("RazorpaySettlements", "HallmarkCertificates", "ReturnRequests", "GoldRateSnapshots", "AbandonedCheckouts", "CodConfirmations")
MIDDLEWARES = ("BlockBadBotsOnCheckout", "ForceWwwRedirect", "RequireAdminTwoFactor", "ThrottleOtpByMobile", "LogSlowCheckoutRequests")
COMMANDS = ("PurgeOldCartSnapshots", "ResendPendingInvoices", "WarmProductCache", "BackfillHsnCodes", "ReportDailySales")
SNIPPETS = ("bot-block", "rate-limit-otp", "cache-static-long", "geo-allow-in", "security-headers")
TF_FILES = ("cloudfront-invoices", "rds-read-replica", "s3-lifecycle-backups", "iam-ci-deployer", "budget-alerts", "ses-domain")
TSX = ("pdp/SizeChartDrawer", "checkout/CodFeeNotice", "cart/FreeShippingBar", "home/FestiveBanner", "pdp/PincodeChecker", "layout/WhatsappFab")
BLADES = ("emails/orders/cod-confirmation", "account/returns/create", "admin/reports/gst-summary", "product/partials/hallmark-badge",
          "checkout/partials/gift-message")
WORKFLOWS = ("nightly-db-backup", "lighthouse-weekly", "deploy-staging-preview", "storefront-preview", "phpstan-baseline")
CONFIGS = ("horizon", "filesystems", "logging", "sanctum", "mail", "backup")
PURPOSE = {"migration": "the new column migration", "job": "the new queued job", "middleware": "the new middleware", "command": "the new console command",
           "snippet": "the nginx snippet", "tf": "the new Terraform file", "tsx": "the new storefront component", "blade": "the new Blade view",
           "workflow": "the new GitHub Actions workflow", "supervisor": "the new Supervisor program", "muplugin": "the WordPress must-use plugin",
           "config": "the config file it edited", "logrotate": "the logrotate rule"}


TF_BODIES = {
    "budget-alerts": ('resource "aws_budgets_budget" "monthly_{r}" {{\n  name         = "{c}-monthly"\n  budget_type  = "COST"\n  limit_amount = "{amt}"\n'
                      '  limit_unit   = "USD"\n  time_unit    = "MONTHLY"\n\n  notification {{\n    comparison_operator        = "GREATER_THAN"\n'
                      '    threshold                  = 80\n    threshold_type             = "PERCENTAGE"\n    notification_type          = "FORECASTED"\n'
                      '    subscriber_email_addresses = ["{mail}"]\n  }}\n}}'),
    "iam-ci-deployer": ('resource "aws_iam_user" "ci_{r}" {{\n  name = "{c}-ci-deployer"\n}}\n\ndata "aws_iam_policy_document" "ci_{r}" {{\n  statement {{\n'
                        '    actions   = ["s3:PutObject", "s3:DeleteObject", "cloudfront:CreateInvalidation"]\n    resources = ["*"]\n  }}\n}}\n\n'
                        'resource "aws_iam_user_policy" "ci_{r}" {{\n  user   = aws_iam_user.ci_{r}.name\n  policy = data.aws_iam_policy_document.ci_{r}.json\n}}'),
    "rds-read-replica": ('resource "aws_db_instance" "replica_{r}" {{\n  identifier          = "{c}-replica"\n  replicate_source_db = aws_db_instance.shop.identifier\n'
                         '  instance_class      = "db.t4g.micro"\n  publicly_accessible = false\n  skip_final_snapshot = true\n}}'),
    "ses-domain": ('resource "aws_sesv2_email_identity" "domain_{r}" {{\n  email_identity = "{dom}"\n}}\n\noutput "ses_dkim_{r}" {{\n'
                   '  value = aws_sesv2_email_identity.domain_{r}.dkim_signing_attributes[0].tokens\n}}'),
}


def php_class(ns: str, name: str, body: list[str], uses: list[str]) -> str:
    return "\n".join(["<?php", "", f"namespace {ns};", "", *[f"use {u};" for u in uses], "", f"class {name}", "{", *body, "}"])


def draw_file(c: Ctx, kind: str) -> dict[str, Any]:
    """A file the agent creates (or an untouched one it edits): the path, the tool call, and what the tool says."""
    rng, w, s = c.rng, c.w, c.w.shop
    repo = f"~/clients/{s.short}-shop"
    pad = [f"    // {x}" for x in rng.sample(("keeps the checkout path fast", "see the note in README-ops.md", "idempotent: safe to retry",
                                                 "runs on the default queue", "times are IST", "amounts are in paise"), 3)]
    if kind == "migration":
        col = w.unique(lambda: rng.choice(NEW_COLS))
        tbl = pick(rng, "orders", "customers", "shipments", "invoices")
        rel = f"database/migrations/{w.clock.strftime('%Y_%m_%d_%H%M%S')}_add_{col}_to_{tbl}_table.php"
        body = "\n".join(["<?php", "", "use Illuminate\\Database\\Migrations\\Migration;", "use Illuminate\\Database\\Schema\\Blueprint;",
                          "use Illuminate\\Support\\Facades\\Schema;", "", "return new class extends Migration", "{", "    public function up(): void", "    {",
                          f"        Schema::table('{tbl}', function (Blueprint $table) {{",
                          f"            $table->{pick(rng, 'timestamp', 'string', 'text')}('{col}')->nullable()->after('{pick(rng, 'status', 'updated_at', 'grand_total')}');",
                          f"            $table->index('{col}');", "        });", "    }", "", "    public function down(): void", "    {",
                          f"        Schema::table('{tbl}', function (Blueprint $table) {{", f"            $table->dropIndex(['{col}']);",
                          f"            $table->dropColumn('{col}');", "        });", "    }", "};"])
        return {"value": rel, "tool": "write_file", "args": {"path": f"{repo}/{rel}", "content": body}, "ask": f"{tbl} pe {col} column chahiye, migration bana"}
    if kind == "job":
        name = w.unique(lambda: rng.choice(JOB_VERBS) + rng.choice(JOB_OBJECTS))
        rel = f"app/Jobs/{name}.php"
        body = php_class("App\\Jobs", name + " implements ShouldQueue", [
            "    use Dispatchable, InteractsWithQueue, Queueable, SerializesModels;", "", f"    public int $tries = {rng.randint(3, 6)};",
            f"    public int $timeout = {rng.choice((60, 120, 300))};", *pad, "", "    public function __construct(public readonly int $orderId)", "    {", "    }", "",
            "    public function handle(): void", "    {", "        $order = Order::with('payments')->findOrFail($this->orderId);", "",
            "        if ($order->status === 'cancelled') {", "            return;", "        }", "",
            f"        Log::info('{name} ran', ['order' => $order->number]);", "    }", "", "    public function backoff(): array", "    {",
            "        return [60, 300, 900];", "    }"], ["App\\Models\\Order", "Illuminate\\Bus\\Queueable", "Illuminate\\Contracts\\Queue\\ShouldQueue",
                                                  "Illuminate\\Foundation\\Bus\\Dispatchable", "Illuminate\\Queue\\InteractsWithQueue",
                                                  "Illuminate\\Queue\\SerializesModels", "Illuminate\\Support\\Facades\\Log"])
        return {"value": rel, "tool": "write_file", "args": {"path": f"{repo}/{rel}", "content": body}, "ask": f"{humanize(name)} ke liye ek queued job bana de, retries ke saath"}
    if kind == "middleware":
        name = w.unique(lambda: rng.choice(MIDDLEWARES))
        rel = f"app/Http/Middleware/{name}.php"
        body = php_class("App\\Http\\Middleware", name, [*pad, "    public function handle(Request $request, Closure $next): Response", "    {",
                                                       "        if ($this->shouldBlock($request)) {", "            abort(429);", "        }", "",
                                                       "        return $next($request);", "    }", "", "    private function shouldBlock(Request $request): bool",
                                                       "    {", f"        return RateLimiter::tooManyAttempts('mw:'.$request->ip(), {rng.randint(10, 60)});", "    }"],
                         ["Closure", "Illuminate\\Http\\Request", "Illuminate\\Support\\Facades\\RateLimiter", "Symfony\\Component\\HttpFoundation\\Response"])
        return {"value": rel, "tool": "write_file", "args": {"path": f"{repo}/{rel}", "content": body}, "ask": f"{humanize(name)} — iske liye middleware likh de"}
    if kind == "command":
        name = w.unique(lambda: rng.choice(COMMANDS))
        rel = f"app/Console/Commands/{name}.php"
        sig = "".join("-" + ch.lower() if ch.isupper() else ch for ch in name).strip("-")
        body = php_class("App\\Console\\Commands", name + " extends Command", [f"    protected $signature = 'shop:{sig} {{--dry-run}}';",
                                                                             f"    protected $description = '{name} (agency ops)';", *pad, "",
                                                                             "    public function handle(): int", "    {", "        $dry = $this->option('dry-run');",
                                                                             "        $this->info($dry ? 'dry run' : 'running');", "        return self::SUCCESS;", "    }"],
                         ["Illuminate\\Console\\Command"])
        return {"value": rel, "tool": "write_file", "args": {"path": f"{repo}/{rel}", "content": body}, "ask": f"{humanize(name)} ka artisan command bana de, dry-run option ke saath"}
    if kind == "snippet":
        v = f"/etc/nginx/snippets/{s.short}-{w.unique(lambda: rng.choice(SNIPPETS))}.conf"
        body = "\n".join([f"# included from /etc/nginx/sites-available/{s.domain}", "map $http_user_agent $agency_bad_bot {", "    default 0;",
                          "    ~*(AhrefsBot|SemrushBot|MJ12bot|DotBot) 1;", "}", "", "if ($agency_bad_bot) {", "    return 444;", "}", "",
                          f"limit_req_zone $binary_remote_addr zone={s.short}_otp:10m rate={rng.randint(3, 12)}r/m;", "add_header Referrer-Policy strict-origin-when-cross-origin;"])
        return {"value": v, "tool": "write_file", "args": {"path": v, "host": w.host, "content": body}, "ask": f"nginx mein {v.split(s.short + '-', 1)[1][:-5].replace('-', ' ')} ka snippet bana, vhost mein include karenge"}
    if kind == "tf":
        rel = f"infra/aws/{w.unique(lambda: rng.choice(TF_FILES))}.tf"
        body = TF_BODIES.get(rel.split("/")[-1][:-3], "").format(c=s.short, r=rid(rng, 4).lower(), amt=rng.choice((30, 50, 80)),
                                                                 mail=f"ops@{s.domain}", dom=s.domain) or "\n".join([f'resource "aws_s3_bucket_lifecycle_configuration" "{s.short}_{rid(rng, 4).lower()}" {{', "  bucket = aws_s3_bucket.media.id", "",
                          "  rule {", '    id     = "expire-old"', '    status = "Enabled"', "", "    filter {", f'      prefix = "{pick(rng, "backups/", "exports/", "tmp/")}"', "    }", "",
                          "    transition {", f"      days          = {rng.choice((30, 45, 60))}", '      storage_class = "GLACIER_IR"', "    }", "",
                          "    expiration {", f"      days = {rng.choice((180, 365, 400))}", "    }", "  }", "}"])
        return {"value": rel, "tool": "write_file", "args": {"path": f"~/{rel}", "content": body}, "ask": f"{rel.split('/')[-1][:-3].replace('-', ' ')} ke liye terraform mein alag file bana"}
    if kind == "tsx":
        part = w.unique(lambda: rng.choice(TSX))
        rel = f"src/components/{part}.tsx"
        name = part.split("/")[1]
        body = "\n".join(["'use client';", "", "import { useState } from 'react';", "import clsx from 'clsx';", "",
                          "type Props = { amount: number; threshold?: number };", "", f"export default function {name}({{ amount, threshold = {rng.choice((499, 999, 1499))} }}: Props) {{",
                          "  const [open, setOpen] = useState(false);", "  const left = Math.max(0, threshold - amount);", "  return (",
                          "    <div className={clsx('rounded-md p-3 text-sm', left ? 'bg-amber-50' : 'bg-emerald-50')} onClick={() => setOpen(!open)}>",
                          "      {left ? `Add ₹${left} more for free shipping` : 'Free shipping unlocked'}", "    </div>", "  );", "}"])
        return {"value": rel, "tool": "write_file", "args": {"path": f"~/clients/{w.next.short}-storefront/{rel}", "content": body}, "ask": f"storefront pe {humanize(name)} chahiye, component bana"}
    if kind == "blade":
        rel = f"resources/views/{w.unique(lambda: rng.choice(BLADES))}.blade.php"
        body = "\n".join(["@extends('layouts.shop')", "", "@section('content')", '<div class="max-w-2xl mx-auto py-8">',
                          "    <h1 class=\"text-xl font-semibold\">{{ __('Order') }} #{{ $order->number }}</h1>", "    @foreach ($order->items as $item)",
                          '        <div class="flex justify-between border-b py-2"><span>{{ $item->name }}</span><span>₹{{ number_format($item->total, 2) }}</span></div>',
                          "    @endforeach", "</div>", "@endsection"])
        return {"value": rel, "tool": "write_file", "args": {"path": f"{repo}/{rel}", "content": body}, "ask": f"{rel.split('/', 2)[2].split('.')[0].replace('/', ' ').replace('-', ' ')} ka blade view bana de"}
    if kind == "workflow":
        rel = f".github/workflows/{w.unique(lambda: rng.choice(WORKFLOWS))}.yml"
        body = "\n".join([f"name: {rel.split('/')[-1][:-4]}", "", "on:", "  schedule:", f"    - cron: '{rng.randint(0, 59)} {rng.randint(18, 23)} * * *'",
                          "  workflow_dispatch:", "", "jobs:", "  run:", "    runs-on: ubuntu-latest", "    steps:", "      - uses: actions/checkout@v4",
                          "      - uses: appleboy/ssh-action@v1", "        with:", "          host: ${{ secrets.VPS_HOST }}", "          username: deploy",
                          "          key: ${{ secrets.VPS_KEY }}", f"          script: cd {s.path} && php artisan {pick(rng, 'backup:run --only-db', 'schedule:test', 'about')}"])
        return {"value": rel, "tool": "write_file", "args": {"path": f"{repo}/{rel}", "content": body}, "ask": f"{rel.split('/')[-1][:-4].replace('-', ' ')} ke liye GitHub Actions workflow bana"}
    if kind == "supervisor":
        v = f"/etc/supervisor/conf.d/{s.short}-{pick(rng, 'webhooks', 'mails', 'exports', 'imports')}-worker-{rid(rng, 2).lower()}.conf"
        body = "\n".join([f"[program:{s.short}-worker]", "process_name=%(program_name)s_%(process_num)02d",
                          f"command=php {s.path}/artisan queue:work redis --sleep=3 --tries=3 --max-time=3600", "autostart=true", "autorestart=true",
                          "stopasgroup=true", "killasgroup=true", "user=deploy", f"numprocs={rng.randint(1, 4)}", "redirect_stderr=true",
                          f"stdout_logfile={s.path}/storage/logs/worker.log", "stopwaitsecs=3600"])
        return {"value": v, "tool": "write_file", "args": {"path": v, "host": w.host, "content": body}, "ask": f"{v.split('-')[1]} queue ke liye alag supervisor program bana"}
    if kind == "muplugin":
        rel = f"wp-content/mu-plugins/{w.wp.short}-{pick(rng, 'disable-xmlrpc', 'login-throttle', 'hide-wp-version', 'cf7-honeypot')}-{rid(rng, 2).lower()}.php"
        body = "\n".join(["<?php", "/**", f" * Plugin Name: {w.wp.name} hardening", " * Description: Added by the agency. Do not edit in wp-admin.", " */", "",
                          "add_filter('xmlrpc_enabled', '__return_false');", "remove_action('wp_head', 'wp_generator');",
                          "add_filter('wp_headers', function ($h) { unset($h['X-Pingback']); return $h; });"])
        return {"value": rel, "tool": "write_file", "args": {"path": f"{w.wp.path}/{rel}", "host": w.host, "content": body}, "ask": f"WP pe {rel.split('-', 1)[1].rsplit('-', 1)[0].replace('-', ' ')} ka mu-plugin daal de"}
    if kind == "config":
        rel = f"config/{w.unique(lambda: rng.choice(CONFIGS))}.php"
        old, new = pick(rng, "'days' => 14,", "'level' => env('LOG_LEVEL', 'debug'),", "'timeout' => 60,"), pick(rng, "'days' => 30,", "'level' => env('LOG_LEVEL', 'warning'),", "'timeout' => 120,")
        return {"value": rel, "tool": "edit_file", "args": {"path": f"{repo}/{rel}", "old_string": old, "new_string": new}, "ask": pick(rng, "log retention aur timeouts thode badha de config mein", "config mein woh chhota change kar de jo kal discuss kiya",
                                                                                "log level warning pe kar de, aur retention thoda zyada")}
    v = f"/etc/logrotate.d/{s.short}-laravel-{rid(rng, 3).lower()}"
    body = "\n".join([f"{s.path}/storage/logs/*.log {{", "    daily", f"    rotate {rng.choice((7, 14, 30))}", "    compress", "    delaycompress",
                      "    missingok", "    notifempty", "    create 0664 deploy www-data", "    su deploy www-data", "}"])
    return {"value": v, "tool": "write_file", "args": {"path": v, "host": w.host, "content": body}, "ask": "laravel logs ke liye logrotate rule daal"}


CONTEXTS = ("returns ka flow chahiye client ko", "gold rate har ghante update hona chahiye", "COD orders confirm karne ka system chahiye",
            "bots checkout pe bahut aa rahe", "CA ko monthly GST summary chahiye", "abandoned checkouts pe reminder jaana chahiye",
            "settlements Razorpay se match nahi ho rahe", "logs se disk bhar raha hai", "festive sale aa rahi hai", "WP site pe spam login attempts")
ACKS = ("Noted.", "Got it, noted as a standing rule.", "Samjha — will follow that.", "Understood, I'll stick to that.", "Okay, noted.",
        "Theek hai, noted.", "Noted for the rest of the work.", "Right, I'll keep that in mind.", "Makes sense; I'll work that way.",
        "Clear. I'll treat that as a rule from now on.", "Haan, samajh gaya.", "Okay — that changes how I'll do deploys, noted.")
DECISION_ACKS = ("Okay, going with that.", "Done deal — I'll plan around it.", "Noted the decision.", "Makes sense for this budget.", "Okay.",
                 "Fine by me; it's the simpler option to run.", "Okay, I'll set it up that way when we get there.", "Noted. Less to maintain, good.",
                 "Theek hai, that's settled then.")
PLAN_ACKS = ("Okay, in that order.", "Will do it step by step and stop if anything fails.", "Sequence noted.", "Okay — starting with the first step.",
             "Got the order. I'll report after each step.", "Okay, one step at a time.", "Clear. Nothing starts before the previous step is confirmed.",
             "Theek hai, same order mein karunga.")
ACK_MORE = ("", "", "", " I'll remind you if something conflicts with it.", " Adding it to my notes for this client.", " 👍", " Thanks for flagging.")
RESOLVE_ASKS = ("ab uska fix daal de aur dobara chala ke dikha", "ok, fix it and re-run the same thing", "isko sort kar, phir wahi command chala",
                "jo red tha usko green kar", "fix + rerun pls", "woh error wala fix kar aur dobara chala", "theek kar ke re-run kar", "fix daal aur phir se chala ke dikha", "ab isko theek kar, phir confirm kar",
                "fix kar de yaar, aur dobara check kar", "jo fail hua tha usko fix karke phir chala")
SYSTEM = ("You are the coding agent of {agency}, a small web agency in Pune. You maintain client sites for the owner-developer:\n"
          "- {shop} ({shop_dom}): Laravel 11 on PHP 8.3, MySQL 8, Redis, queues under Supervisor, Razorpay payments, Shiprocket shipping.\n"
          "- {wp} ({wp_dom}): WordPress with WooCommerce.\n- {nxt} ({nxt_dom}): Next.js 14 storefront run by pm2.\n"
          "All three run on one {provider} VPS ({host}, Ubuntu 22.04) behind nginx and PHP-FPM; media and backups live in S3 behind CloudFront, "
          "managed with Terraform in ~/infra/aws; CI and deploys run on GitHub Actions.\n\n"
          "Tools: ssh(host, user, command) runs a command on the VPS; shell(command, cwd) runs in the local workspace; read_file(path[, host]) "
          "reads a file with secrets masked; edit_file(path, old_string, new_string); write_file(path, content[, host]); artisan(command, cwd[, host, env]); "
          "mysql(database, query[, host]); terraform(dir, command); gh(args, repo).\n\n"
          "Work carefully on production systems, explain what you find in plain words, and say what you changed.")


class Builder(Ctx):
    def __init__(self, rng: random.Random, w: World, n: int) -> None:
        self.rng, self.w, self.n = rng, w, n
        self.msgs: list[Message] = []
        self.chars = 0
        self.pasted: list[tuple[int, str]] = []
        self.ncalls = 0
        self.tools_used: set[str] = set()
        self.force: Callable[[Ctx, Site], Step] | None = None

    # -- primitives --
    def add(self, m: Message) -> int:
        self.msgs.append(m)
        self.chars += len(text_of(m))
        return len(self.msgs) - 1

    def user(self, text: str) -> int:
        self.w.tick()
        return self.add({"role": "user", "content": text})

    def say(self, text: str) -> int:
        return self.add({"role": "assistant", "content": text})

    def want(self) -> int:
        i = len(self.msgs) + 1
        deficit = CHARS_PER_MESSAGE * (i + 1) - self.chars
        base = self.rng.lognormvariate(7.7, 0.55)
        return int(min(26000, max(300, base + 0.5 * deficit)))

    def _call(self, tool: str, args: dict[str, Any]) -> dict[str, Any]:
        self.ncalls += 1
        self.tools_used.add(tool)
        return {"id": f"call_{self.ncalls:05d}{hexs(self.rng, 6)}", "type": "function",
                "function": {"name": tool, "arguments": json.dumps(args, ensure_ascii=False)}}

    def call(self, steps: list[tuple[str, dict[str, Any], str]], note: str = "") -> tuple[int, list[int]]:
        calls = [self._call(tool, args) for tool, args, _ in steps]
        i = self.add({"role": "assistant", "content": note, "tool_calls": calls})
        outs = [self.add({"role": "tool", "tool_call_id": cl["id"], "name": tool, "content": out})
                for cl, (tool, _, out) in zip(calls, steps)]
        self.w.tick(0, 3)
        return i, outs

    # -- turns --
    def category(self) -> tuple[str, Site]:
        cat = self.rng.choice(tuple(c for c in STEPS_OF if c in ASKS))
        missing = sorted(set(TOOLS) - self.tools_used)
        if missing and len(self.msgs) > 0.25 * self.n:
            cat = next(c for c in ASKS if missing[0] in {tool_of(fn) for fn in STEPS_OF[c]})
            self.force = next(fn for fn in STEPS_OF[cat] if tool_of(fn) == missing[0])
        kind = SITE_OF[cat]
        site = self.rng.choice(self.w.sites()) if kind == "any" else {"shop": self.w.shop, "wp": self.w.wp, "next": self.w.next}[kind]
        return cat, site

    def turn(self, text: str, length: int, cat: str | None = None, site: Site | None = None,
             planted: tuple[str, dict[str, Any], str] | None = None, pos: int = 0, ack: str = "", after: str = "",
             answer: str = "", first: Callable[[Ctx, Site], Step] | None = None) -> tuple[int, int, int]:
        """A user message, tool steps and an answer, about ``length`` messages; ``planted`` is run as step ``pos``.
        Returns (user index, planted call index, planted result index) (-1 when nothing was planted)."""
        if cat is None or site is None:
            cat, site = self.category()
        length = max(length, 4 if planted else 2)
        if length == 3:
            length = 4 if planted else 2
        ui = self.user(text)
        body = length - 2
        nsteps, double = body // 2, body % 2 == 1
        if planted and double and nsteps == 1:
            double = False
        pos = min(pos, nsteps - 1 - double) if planted else -1
        doubled = -1
        if double:
            doubled = self.rng.choice([k for k in range(nsteps) if k > pos])
        ci = ti = -1
        gists: list[str] = []
        chain = STEPS_OF[cat]
        used: set[Callable[..., Step]] = set()
        seen: set[str] = set()
        for k in range(nsteps):
            fixed = ack if k == 0 and ack else (after if planted and k == pos + 1 else None)
            if k == pos and planted:
                ci, outs = self.call([planted], fixed if fixed is not None else note_for(self.rng, planted[0]))
                ti = outs[0]
                continue
            picks = []
            for _ in range(2 if k == doubled else 1):
                fn = chain[k] if k < len(chain) and (k == 0 or self.rng.random() < 0.7) else self.rng.choice(chain)
                if fn in used or fn in picks:
                    fn = self.rng.choice([f for f in chain if f not in used and f not in picks] or list(chain))
                picks.append(fn)
            if k == 0 and first is not None:
                picks[0] = first
            if self.force is not None:
                picks[0], self.force = self.force, None
            used.update(picks)
            steps = []
            for fn in picks:
                tool, args, out, gist = fn(self, site)
                for _ in range(3):  # the same command twice in one turn: run something else from the chain instead
                    if json.dumps(args, sort_keys=True) not in seen:
                        break
                    tool, args, out, gist = self.rng.choice(chain)(self, site)
                seen.add(json.dumps(args, sort_keys=True))
                steps.append((tool, args, out))
                gists.append(gist)
            self.call(steps, fixed if fixed is not None else note_for(self.rng, steps[0][0]))
        parts = []
        if planted and pos == nsteps - 1 and after:
            parts.append(after)
        if nsteps == 0 and ack:
            parts.append(ack)
        if answer:
            parts.append(answer)
        if gists:
            parts.append(answer_text(self.rng, gists) if not answer else "Also checked: " + "; ".join(dict.fromkeys(gists)) + ".")
        self.say("\n\n".join(parts) or self.rng.choice(("Okay.", "Done.", "Noted.")))
        return ui, ci, ti

    def filler(self, length: int) -> None:
        if length == 2:
            ask, replies = self.rng.choice(SMALLTALK)
            self.user(ask)
            self.say(self.rng.choice(replies))
            return
        cat, site = self.category()
        text, first = filler_ask(self.rng, self.w, cat, site)
        self.turn(text, length, cat, site, first=first)


def tool_of(fn: Callable[..., Any]) -> str:
    return TOOL_OF_STEP.get(fn.__name__, "ssh")


TOOL_OF_STEP = {"st_read": "read_file", "st_read_conf": "read_file", "st_read_code": "read_file", "st_read_nginx": "read_file",
                "st_read_infra": "read_file", "st_read_pkg": "read_file", "st_edit": "edit_file", "st_write": "write_file", "st_pest": "artisan", "st_phpunit": "artisan",
                "st_artisan_misc": "artisan", "st_mysql": "mysql", "st_terraform": "terraform", "st_gh": "gh", "st_git_log": "shell",
                "st_git_status": "shell", "st_composer": "shell", "st_phpstan": "shell", "st_next_build": "shell", "st_lighthouse": "shell"}


# --- the session ----------------------------------------------------------------------------------------------------------

STYLES = ("indirect", "casual", "conditional", "hinglish")
PASTE_KINDS = ("whatsapp", "ticket", "whatsapp", "razorpay", "handover", "whatsapp", "sow", "whatsapp", "ticket", "whatsapp", "whatsapp",
               "whatsapp", "whatsapp", "whatsapp")


@dataclass
class Event:
    at: float
    seq: int
    emit: Callable[[Builder, int], None]


def spots(rng: random.Random, k: int, lo: float, hi: float) -> list[float]:
    return [lo + (j + rng.uniform(0.15, 0.85)) / k * (hi - lo) for j in range(k)]


def cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def rule_message(rng: random.Random, w: World, body: str, value: str, mid: bool) -> tuple[str, tuple[str, Any, Site] | None]:
    """The owner's message carrying a rule, and the category of the task it also asks for (None: just the rule)."""
    if mid:
        p = {"shop": w.shop.name.split()[0], "owner": w.shop.owner, "wp": w.wp.name.split()[0], "nxt": w.next.name.split()[0]}
        para, cat = rng.choice(PARA_ONE)
        site = {"wp": w.wp, "next": w.next}.get(cat, w.shop)
        body = body if body.startswith(value) else cap(body)
        return para.format(**p) + "\n\n" + rng.choice(PARA_TWO_BEFORE) + " " + body + ". " + rng.choice(PARA_TWO_AFTER), (cat, None, site)
    lead, tail = rng.choice(RULE_LEADS), rng.choice(RULE_TAILS)
    text = (lead + " " + body if lead else body if body.startswith(value) else cap(body)) + tail
    if rng.random() < 0.35:
        site = rng.choice(w.sites())
        cat = rng.choice(("errors", "slow", "health", "tests", "db"))
        ask, first = ask_of(rng, w, cat, site)
        return (ask + (" " if ask.endswith("?") else ". ") + text if rng.random() < 0.5 else text + "\n\n" + cap(ask)), (cat, first, site)
    return text, None


class Planner:
    """Draws the facts of one session and turns them into events placed along it."""

    def __init__(self, b: Builder, n: int, k: int) -> None:
        self.b, self.rng, self.w, self.n, self.k = b, b.rng, b.w, n, k
        self.events: list[Event] = []
        self.records: list[dict[str, Any]] = []
        self.hi = HIGH if n >= 300 else HIGH - 0.07  # short sessions have less slack for turns that run long

    def add(self, at: float, emit: Callable[[Builder, int], None]) -> None:
        self.events.append(Event(at * self.n, len(self.events), emit))

    def length(self, room: int, lo: int = 4, hi: int = 12) -> int:
        return max(2, min(room, self.rng.randint(lo, hi)))

    def record(self, kind: str, value: str, index: int, query: str, **more: Any) -> dict[str, Any]:
        r = {"kind": kind, "value": value, "index": index, "query": query, **more}
        self.records.append(r)
        return r

    # -- the owner's words --
    def instructions(self) -> None:
        rng, k = self.rng, self.k
        params = rule_params(rng, self.w)
        keys = list(RULES)
        rng.shuffle(keys)
        styles = list(STYLES)
        rng.shuffle(styles)
        at = [rng.uniform(0.045, 0.07), rng.uniform(0.08, 0.112)][:k] + (spots(rng, k - 2, 0.15, self.hi) if k > 2 else [])
        adopt_at = max(2, k // 2) if k >= 3 else -1
        for j in range(k):
            if j == adopt_at:
                point, template = rng.choice(ADOPTED)
                text, value = marked(template, params)
                body = rng.choice(REJECTS) + ". " + text
                self.add(at[j], self.adopted_event(body, value, point))
                continue
            style = styles[j % 4]
            key = next(x for x in keys if any(s == style for s, _ in RULES[x][1]))
            keys.remove(key)
            query, forms = RULES[key]
            text, value = marked(next(t for s, t in forms if s == style), params)
            msg, task = rule_message(rng, self.w, text, value, mid=j % 3 == 2)
            ack = rng.choice(ACKS) + pick(rng, f" {cap(RULE_GIST[key])}.", f" ({RULE_GIST[key]})", f" — {RULE_GIST[key]}, got it.", f" {cap(RULE_GIST[key])}; I'll remind you if something conflicts.")
            self.add(at[j], self.user_event("instruction", msg, value, query, ack, task=task))

    def user_event(self, kind: str, text: str, value: str, query: str, ack: str, stale: dict[str, Any] | None = None,
                   use: tuple[str, dict[str, Any], str] | None = None, task: tuple[str, Any, Site] | None = None,
                   answer: str = "") -> Callable[[Builder, int], None]:
        """A turn opened by the owner's message carrying the fact; the agent acknowledges, then does what else was asked."""
        def emit(b: Builder, room: int) -> None:
            if task is not None:
                cat, first, site = task
                length = max(4, self.length(room, 4, 12))
            elif use is not None:
                cat, first, site = "db", None, self.w.shop
                length = self.length(room, 4, 10)
            else:
                cat, first, site = pick(self.rng, "notes", "config", "health"), None, self.w.shop
                length = self.length(room, 2, self.rng.choice((2, 2, 4, 6)))
            ui, _, _ = b.turn(text, length, cat, site, planted=use, pos=0, ack=ack, answer=answer, first=first)
            more = {"stale": stale["value"], "stale_index": stale["index"]} if stale else {}
            self.record(kind, value, ui, query, **more)
        return emit

    def adopted_event(self, body: str, value: str, point: int) -> Callable[[Builder, int], None]:
        def emit(b: Builder, room: int) -> None:
            msg, paste = paste_message(self.rng, self.w, "audit")
            ui, _, _ = b.turn(msg, self.length(room // 2, 2, 6), "config", self.w.wp, ack=paste_reply(self.rng, self.w, "audit", paste))
            b.pasted.append((ui, paste))
            ui, _, _ = b.turn(body, self.length(room // 2, 2, 6), "config", self.w.shop, ack=self.rng.choice(ACKS) + self.rng.choice(ACK_MORE))
            self.record("instruction", value, ui, f"Which point of the security audit did the user adopt (point {point}), in their words?")
        return emit

    def corrections(self) -> None:
        rng, k, n = self.rng, self.k, self.n
        loose = min(len(LOOSE), k // 3)
        kinds = rng.sample(NEAR, min(len(NEAR), k - loose)) + rng.sample(LOOSE, loose)
        rng.shuffle(kinds)
        for j, at in enumerate(spots(rng, k, 0.12, self.hi)):
            d = draw_correction(rng, self.w, kinds[j])
            self.w.used.update((d["value"], d["stale"]))
            far = j % 2 == 1 and n * 0.3 >= 120
            dist = rng.randint(110, min(420, int(n * 0.3))) if far else rng.randint(max(4, n // 60), max(6, min(60, n // 12)))
            stale_at = max(0.04, at - dist / n)
            if stale_at >= at - 3 / n:
                stale_at, at = 0.04, max(at, 0.04 + 6 / n)
            shared: dict[str, Any] = {"value": d["stale"]}
            ask = rng.random() < 0.4 or kinds[j] == "client"

            def said(b: Builder, room: int, d: dict[str, Any] = d, shared: dict[str, Any] = shared, ask: bool = ask) -> None:
                text = d["stale_text"]
                site, first, cat = self.rng.choice(self.w.sites()), None, "health"
                if "wali site" in d["stale"]:
                    site, cat = self.w.shop, "slow"
                elif ask:
                    more, first = ask_of(self.rng, self.w, "health", site)
                    text += ". " + more
                ui, _, _ = b.turn(text, max(4, self.length(room, 4, 8)) if ask else 2, cat, site, first=first,
                                  ack=pick(self.rng, f"Noted: {d['stale']}.", "Okay, noted.", "Theek hai, noted."))
                shared["index"] = ui
            self.add(stale_at, said)
            ack = pick(rng, f"Ah ok — {d['value']}, noted.", "Got it, corrected.", f"Okay, {d['value']} then. Thanks for catching that.", "Noted the correction.")
            self.add(at, self.user_event("correction", d["text"], d["value"], d["query"], ack, stale=shared))

    def decisions(self) -> None:
        rng, k = self.rng, self.k
        topics = rng.sample(list(DECISIONS), k)
        revised = set(rng.sample(range(k), max(1, k // 3))) if k >= 2 else set()
        for j, at in enumerate(spots(rng, k, 0.06, self.hi)):
            label, options = DECISIONS[topics[j]]
            first, second = rng.sample(options, 2)
            why = rng.choice(DECIDE_WHY).format(owner=self.w.shop.owner)
            if j in revised:
                shared: dict[str, Any] = {"value": first}
                text0 = rng.choice(DECIDE).format(v=first, t=label) + why
                stale_at = max(0.04, at - rng.randint(8, max(10, min(300, int(self.n * 0.2)))) / self.n)

                def said(b: Builder, room: int, text0: str = text0, shared: dict[str, Any] = shared) -> None:
                    ui, _, _ = b.turn(text0, self.length(room, 2, self.rng.choice((2, 2, 4))), "config", self.w.shop, ack=self.rng.choice(DECISION_ACKS) + self.rng.choice(ACK_MORE))
                    shared["index"] = ui
                self.add(stale_at, said)
                text = rng.choice(REVISE).format(v=second, s=first)
                self.add(at, self.user_event("decision", text, second, f"What did the user finally choose for the {label}?",
                                             rng.choice(DECISION_ACKS) + f" Changing the {label} plan accordingly.", stale=shared))
            else:
                text = rng.choice(DECIDE).format(v=second, t=label) + why
                self.add(at, self.user_event("decision", text, second, f"What did the user decide for the {label}?",
                                             rng.choice(DECISION_ACKS) + pick(rng, "", f" That settles the {label}.", f" ({label} decided.)", f" Noting it for the {label}.")))

    def plans(self) -> None:
        rng, k = self.rng, self.k
        topics = rng.sample(list(PLAN_STEPS), min(k, len(PLAN_STEPS)))
        while len(topics) < k:
            topics.append(rng.choice(list(PLAN_STEPS)))
        for j, at in enumerate(spots(rng, k, 0.05, self.hi)):
            p = {"table": pick(rng, "orders", "payments", "invoices", "customers"), "bucket2": f"{self.w.shop.short}-media-{rid(rng, 4).lower()}",
                 "size": pick(rng, "4GB/2vCPU", "8GB/4vCPU", "s-4vcpu-8gb"), "hour": rng.randint(10, 12)}
            steps = PLAN_STEPS[topics[j]]
            a, b_, c = sorted(rng.sample(range(len(steps)), 3))
            value = self.w.unique(lambda steps=steps, a=a, b_=b_, c=c, p=p: rng.choice(PLAN_FORMS).format(a=steps[a], b=steps[b_], c=steps[c]).format(**p))
            topical = (PLAN_SHORT[topics[j]] + " ka plan:", PLAN_SHORT[topics[j]] + " —", "for the " + PLAN_SHORT[topics[j]] + ":")
            lead, tail = rng.choice(topical if rng.random() < 0.6 else PLAN_LEADS), rng.choice(PLAN_TAILS)
            text = (lead + " " if lead else "") + value + tail
            query = f"In what order did the user want {PLAN_TOPICS[topics[j]].format(**p)} done?"
            topic = PLAN_SHORT[topics[j]]
            ack = rng.choice(PLAN_ACKS) + " " + pick(rng, f"I'll start the {topic} when you say go.", f"Noting the order for the {topic}.",
                                                     f"The {topic} runs in exactly that order.", f"{cap(topic)}: {value.count(',') + value.count(';') + 1} steps, noted.",
                                                     f"I'll ping you after each step of the {topic}.")
            self.add(at, self.user_event("plan", text, value, query, ack))

    def identifiers(self) -> None:
        rng, k = self.rng, self.k
        user_kinds = rng.sample(USER_IDS, len(USER_IDS))
        tool_kinds = rng.sample(TOOL_IDS, len(TOOL_IDS))
        for j, at in enumerate(spots(rng, k, 0.05, self.hi)):
            if j % 2 == 0:
                d = draw_identifier(rng, self.w, user_kinds[(j // 2) % len(user_kinds)])
                use = None
                if d.get("tool"):
                    out = d["out"] or self.awb_lines(d["value"])
                    use = (d["tool"], d["args"], out)
                sub = user_kinds[(j // 2) % len(user_kinds)]
                self.add(at, self.user_event("identifier", d["text"], d["value"], d["query"], "" if use else rng.choice(ACKS[4:]), use=use,
                                             answer=ID_ANSWERS.get(sub, "")))
            else:
                self.add(at, self.tool_event("identifier", tool_kinds[(j // 2) % len(tool_kinds)]))

    def awb_lines(self, awb: str) -> str:
        t = self.w.clock - timedelta(days=self.rng.randint(2, 6))
        s = self.w.shop
        return "\n".join([f'[{ts(t)}] production.INFO: Shipment created {{"order":"{s.short.upper()}-{self.rng.randint(90000, 99999)}","awb":"{awb}",'
                          f'"courier":"{self.rng.choice(COURIERS)}"}}',
                          f'[{ts(t + timedelta(hours=5))}] production.WARNING: Tracking sync returned no scans {{"awb":"{awb}","attempt":1}}',
                          f'[{ts(t + timedelta(days=1))}] production.WARNING: Tracking sync returned no scans {{"awb":"{awb}","attempt":2}}'])

    def tool_event(self, kind: str, sub: str, resolve: float | None = None) -> Callable[[Builder, int], None]:
        """A turn whose planted step prints (or, for a file, writes) the fact."""
        shared: dict[str, Any] = {}

        def emit(b: Builder, room: int) -> None:
            rng = self.rng
            if kind == "identifier":
                d = draw_tool_identifier(b, sub)
                after = d["note"].format(v=d["value"])
            elif kind == "finding":
                d = draw_finding(b, sub)
                nth = next((k for k, x in enumerate(d["out"].splitlines(), 1) if d["value"] in x), 1)
                tail = rng.choice(POINT_TAIL).format(nth=f"{nth}{'th' if nth % 10 > 3 or nth in (11, 12, 13) or nth % 10 == 0 else ('st', 'nd', 'rd')[nth % 10 - 1]}")
                point, where = rng.choice(POINT_BACK), pick(rng, "", f" in that {FINDING_WHAT[sub]}", f" in the {FINDING_WHAT[sub]}")
                point += where if point.startswith(("That one", "That's clearly", "There it is", "The line")) else ""
                after = rng.choice(QUOTE_BACK).format(v=d["value"]) if rng.random() < 0.5 else point + (tail if tail or point.endswith(".") else ".")
            elif kind == "error":
                d = draw_error(b, sub)
                after = pick(rng, "There's the failure.", "That's the error — let me see where it comes from.", f"Failing line: {d['value']}",
                             "Got it: it fails there.", "Red. The error is in the output above.")
            else:
                d = draw_file(b, sub)
                d["query"] = f"Which file did the agent {'edit' if d['tool'] == 'edit_file' else 'create'} for {PURPOSE[sub]}?"
                after = pick(rng, "Written.", "File is in place.", "Done; next I'll wire it up.", "")
            tail = rng.choice(TAILS)
            ask = rng.choice(OPENERS) + (d.get("ask") or "") + ("" if "sirf dekho" in tail else tail)
            if kind == "error":
                answer = rng.choice(EXPLAIN[sub]) + " " + pick(rng, "Want me to fix it?", "I'll dig into the cause.", "Fixing it next unless you say otherwise.", "")
            elif kind == "finding":
                answer = pick(rng, "I'd start there.", "", "Want me to dig into why?", "That lines up with what the client is seeing.", "")
            else:
                answer = ""
            length = self.length(room, 4, 12)
            pos = rng.randint(0, max(0, min(2, (length - 4) // 2, int(0.86 * self.n - len(b.msgs) - 2) // 2)))
            planted = (d["tool"], d["args"], d.get("out", ""))
            if kind == "file":
                planted = (d["tool"], d["args"], f"{'Edited' if d['tool'] == 'edit_file' else 'Wrote'} {d['args']['path']} "
                           f"({len(d['args'].get('content', d['args'].get('new_string', '')).splitlines())} lines)")
            cat = CAT_OF[sub]
            site = {"wp": self.w.wp, "next": self.w.next}.get(SITE_OF[cat], self.w.shop)
            _, ci, ti = b.turn(ask, length, cat, site, planted=planted, pos=pos, after=after, answer=answer.strip())
            index = ci if kind == "file" else ti
            shared.update(rec=self.record(kind, d["value"], index, d["query"], resolved=None), call=(d["tool"], d["args"]), rerun=d.get("rerun"))
        if resolve is not None:
            def rerun(b: Builder, room: int) -> None:
                tool, args = shared["call"]
                fix = pick(self.rng, "Fixing the cause first, then the same command again.", "Small fix, then a re-run.", "Patching it, then re-running.")
                _, _, ti = b.turn(self.rng.choice(RESOLVE_ASKS), self.rng.choice((6, 8)), "fix", self.w.shop, planted=(tool, args, shared["rerun"]()),
                                  pos=1, ack=fix, after=pick(self.rng, "Clean now.", "That error is gone.", "Passes now.", "No more of that line."))
                shared["rec"]["resolved"] = ti
            self.add(resolve, rerun)
        return emit

    def tool_facts(self) -> None:
        rng, k, n = self.rng, self.k, self.n
        for kind, pool in (("finding", FINDINGS), ("file", FILE_KINDS)):
            subs = rng.sample(pool, min(k, len(pool)))
            while len(subs) < k:
                subs.append(rng.choice(pool))
            for j, at in enumerate(spots(rng, k, 0.05, self.hi)):
                self.add(at, self.tool_event(kind, subs[j]))
        resolved = k // 2
        good = rng.sample(RESOLVABLE, resolved)
        rest = rng.sample([e for e in ERRORS if e not in good], k - resolved)
        subs = good + rest
        order = list(range(k))
        rng.shuffle(order)
        for j, at in enumerate(spots(rng, k, 0.05, self.hi)):
            which = order[j]
            sub = subs[which]
            res = min(0.95, at + rng.randint(6, max(8, min(200, n // 12))) / n) if which < resolved else None
            if res is not None and n < 300:  # short sessions: re-run after the last planted fact, so it delays none
                res = max(res, self.hi + 0.03)
            self.add(at, self.tool_event("error", sub, res))

    def pastes(self) -> None:
        rng, n = self.rng, self.n
        count = max(1, min(len(PASTE_KINDS), round(n / 220)))
        kinds = list(PASTE_KINDS[:count])
        if self.k < 3:
            kinds[-1] = "audit"
        for at in spots(rng, count, 0.05, 0.8):
            kind = kinds.pop(rng.randrange(len(kinds)))

            def emit(b: Builder, room: int, kind: str = kind) -> None:
                msg, paste = paste_message(self.rng, self.w, kind)
                cat = {"whatsapp": "errors", "ticket": "health", "razorpay": "code", "handover": "config", "sow": "config", "audit": "config"}[kind]
                site = self.w.wp if kind == "audit" else self.w.shop
                ui, _, _ = b.turn(msg, self.length(room, 2, 10), cat, site, ack=paste_reply(self.rng, self.w, kind, paste))
                b.pasted.append((ui, paste))
                if kind == "audit":
                    b.turn(self.rng.choice(REJECTS) + ", baaki baad mein dekhte hain", self.length(room // 2, 2, 4))
            self.add(at, emit)

    def run(self) -> None:
        b, n = self.b, self.n
        events = sorted(self.events, key=lambda e: (e.at, e.seq))
        b.filler(self.rng.randint(2, 6) if n < 200 else self.rng.randint(4, 10))
        for j, ev in enumerate(events):
            while len(b.msgs) < 0.035 * n:
                b.filler(2 if 0.035 * n - len(b.msgs) < 3 else 4)
            while ev.at - len(b.msgs) >= 6:
                gap = int(ev.at) - len(b.msgs)
                b.filler(self.rng.randint(4, min(14, gap)) if gap >= 4 else gap)
            nxt = events[j + 1].at if j + 1 < len(events) else ev.at + 14
            ev.emit(b, max(2, int(nxt - len(b.msgs))))
        while True:
            left = n - 1 - len(b.msgs)
            if left <= 0:
                break
            if left in (1, 3):
                if left == 3:
                    b.filler(2)
                b.say(pick(self.rng, "One more note: nothing else changed on the server in this round.", "(Logs above are the full tail, nothing trimmed.)",
                           "Also — I've left everything else as it was."))
                break
            if left <= 14:
                b.filler(left)
                break
            size = self.rng.randint(4, min(14, left - 4))
            if left - size in (1, 3):
                size += 1
            b.filler(size)
        site = self.rng.choice(self.w.sites())
        b.user(filler_ask(self.rng, self.w, self.rng.choice(tuple(ASKS)), site)[0])


def _perturb(text: str, s: str, keep: list[str]) -> str | None:
    """``text`` with every occurrence of ``s`` broken by one changed character outside the ``keep`` strings."""
    for _ in range(200):
        at = text.find(s)
        if at < 0:
            return text
        spans = []
        for kstr in keep:
            p = text.find(kstr)
            while p >= 0:
                spans.append((p, p + len(kstr)))
                p = text.find(kstr, p + 1)
        spots_ = [j for j in range(at, at + len(s)) if text[j].isalnum() and text[j].isascii() and "\\" not in text[max(0, j - 5):j]
                  and not any(a <= j < b for a, b in spans)]
        if not spots_:
            return None
        j = spots_[-1]
        ch = text[j]
        new = str((int(ch) + 3) % 10) if ch.isdigit() else chr((ord(ch.lower()) - 97 + 7) % 26 + 97)
        text = text[:j] + (new.upper() if ch.isupper() else new) + text[j + 1:]
    return None


def sanitize(msgs: list[Message], records: list[dict[str, Any]], pasted: list[tuple[int, str]]) -> bool:
    """Keep every value (and stale value) out of the messages outside its window; False if that cannot be done."""
    rules: list[tuple[str, list[tuple[int, int]]]] = []
    for r in records:
        rules.append((r["value"], [(r["index"], r["index"] + AFTER_VALUE)]))
        if r.get("stale") is not None:
            rules.append((r["stale"], [(r["stale_index"], r["stale_index"] + STALE_REACH), (r["index"], r["index"] + AFTER_VALUE)]))
    for _ in range(4):
        texts = [text_of(m) for m in msgs]
        starts, pos = [], 0
        for t in texts:
            starts.append(pos)
            pos += len(t) + 1
        big = "\x00".join(texts)
        bad: dict[int, set[str]] = {}
        for s, windows in rules:
            at = big.find(s)
            while at >= 0:
                i = bisect.bisect_right(starts, at) - 1
                if not any(a <= i <= z for a, z in windows):
                    bad.setdefault(i, set()).add(s)
                at = big.find(s, at + 1)
        if not bad:
            return True
        for i, strings in sorted(bad.items()):
            keep = [s for s, windows in rules if any(a <= i <= z for a, z in windows)]
            m = msgs[i]
            old = str(m.get("content") or "")
            for s in sorted(strings):
                new = _perturb(str(m.get("content") or ""), s, keep)
                if new is None:
                    return False
                m["content"] = new
                for call in m.get("tool_calls") or []:
                    args = _perturb(call["function"]["arguments"], s, keep)
                    if args is None:
                        return False
                    call["function"]["arguments"] = args
            if m["content"] != old:
                for j, (k, p) in enumerate(pasted):
                    if k == i:
                        at = old.find(p)
                        pasted[j] = (k, m["content"][at:at + len(p)])
    return False


def _build(seed: int, messages: int, attempt: int) -> Session | None:
    rng = random.Random(f"gen_webagency:{seed}:{messages}:{attempt}")
    w = make_world(rng)
    b = Builder(rng, w, messages)
    agency = pick(rng, "Tilak Road Digital", "Kothrud WebWorks", "Sinhagad Studio", "Baner Pixel Labs", "Deccan Web Co")
    b.add({"role": "system", "content": SYSTEM.format(agency=agency, shop=w.shop.name, shop_dom=w.shop.domain, wp=w.wp.name, wp_dom=w.wp.domain,
                                                      nxt=w.next.name, nxt_dom=w.next.domain, provider=w.provider, host=w.host)})
    k = per_kind(messages)
    plan = Planner(b, messages, k)
    plan.instructions()
    plan.corrections()
    plan.decisions()
    plan.plans()
    plan.identifiers()
    plan.tool_facts()
    plan.pastes()
    plan.run()
    if len(b.msgs) != messages or not sanitize(b.msgs, plan.records, b.pasted):
        return None
    facts = [Fact(r["kind"], r["value"], r["index"], r["query"], stale=r.get("stale"), stale_index=r.get("stale_index"), resolved=r.get("resolved"))
             for r in sorted(plan.records, key=lambda r: (KINDS.index(r["kind"]), r["index"]))]
    return Session(messages=b.msgs, facts=facts, seed=seed, pasted=b.pasted)


def make_session(seed: int, messages: int) -> Session:
    """A session of exactly ``messages`` messages (at least 60) with ``per_kind(messages)`` facts of each kind."""
    if messages < SMALLEST:
        raise ValueError(f"gen_webagency needs at least {SMALLEST} messages, got {messages}")
    for attempt in range(12):
        session = _build(seed, messages, attempt)
        if session is not None:
            return session
    raise RuntimeError(f"could not build a session for seed {seed} at {messages} messages")

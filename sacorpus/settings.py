"""The one settings module of sacorpus.

Every custom setting is declared here with its default and a comment saying what it is for, so
`scrapy settings --get SACORPUS_...` and scrapyd see the same values a local crawl does. Anything may
be overridden per run with ``-s NAME=value`` or by environment (``MONGO_URI``).
"""

from __future__ import annotations

import os

BOT_NAME = "sacorpus"
SPIDER_MODULES = ["sacorpus.spiders"]
NEWSPIDER_MODULE = "sacorpus.spiders"
COMMANDS_MODULE = "sacorpus.commands"

# --- politeness -----------------------------------------------------------------------------------
# Who we are and how to reach us: site operators see this in their logs. USER_AGENT follows the run's
# SACORPUS_CONTACT_URL (-s, scrapyd setting=, environment) unless the run gives its own USER_AGENT.
SACORPUS_CONTACT_URL = os.environ.get("SACORPUS_CONTACT_URL", "https://github.com/sacorpus/sacorpus")
USER_AGENT = f"sacorpus/0.1 (+{SACORPUS_CONTACT_URL}; news corpus research crawler)"
ROBOTSTXT_OBEY = True
AUTOTHROTTLE_ENABLED = True
AUTOTHROTTLE_START_DELAY = 1.0
AUTOTHROTTLE_MAX_DELAY = 30.0
AUTOTHROTTLE_TARGET_CONCURRENCY = 2.0
CONCURRENT_REQUESTS = 16
CONCURRENT_REQUESTS_PER_DOMAIN = 4
DOWNLOAD_DELAY = 0.25
DOWNLOAD_TIMEOUT = 60
DOWNLOAD_MAXSIZE = 50 * 1024 * 1024  # a 50 MB page is the largest we fetch
DOWNLOAD_WARNSIZE = 10 * 1024 * 1024
REDIRECT_MAX_TIMES = 10  # redirect loops end here and are counted
RETRY_ENABLED = True
RETRY_TIMES = 3
RETRY_HTTP_CODES = [500, 502, 503, 504, 522, 524, 408, 429]

# --- fetching: sacorpus.middlewares (process_request runs low -> high) ------------------------------
DOWNLOADER_MIDDLEWARES = {
    "sacorpus.middlewares.mirror.MirrorMiddleware": 20,  # the run's base_url chosen at download time
    # the publication's hosts, public addresses, http(s) only: redirects and sitemap entries included
    "sacorpus.middlewares.address_guard.AddressGuardMiddleware": 25,
    "sacorpus.middlewares.stats.FetchStatsMiddleware": 50,  # outermost: counts final failures per publication
    "sacorpus.middlewares.robots.RobotsTxtMiddleware": 100,  # Scrapy 2.19's lets concurrent waiters through
    "scrapy.downloadermiddlewares.robotstxt.RobotsTxtMiddleware": None,
    "sacorpus.middlewares.retry.RetryAfterMiddleware": 550,  # backoff honouring Retry-After on 429/5xx
    "scrapy.downloadermiddlewares.retry.RetryMiddleware": None,
    "sacorpus.middlewares.browser_ua.BrowserUserAgentRetryMiddleware": 560,  # one browser-UA retry on 403
    # content codings undone by the page core's inflater: unlabelled and mislabelled ones too; a body it
    # cannot undo cleanly passes on as it came (the page core records why) instead of being dropped
    "scrapy.downloadermiddlewares.httpcompression.HttpCompressionMiddleware": None,
    "sacorpus.middlewares.decompression.DecompressionMiddleware": 590,
    "sacorpus.middlewares.redirects.RedirectLoopMiddleware": 610,  # redirect loops end early and are counted
}
SACORPUS_FETCH_STATS_ENABLED = True
# --- what content may make the crawler connect to (sacorpus.middlewares.address_guard) ---------------------
SACORPUS_ADDRESS_GUARD_ENABLED = True
SACORPUS_ALLOWED_HOSTS: list[
    str
] = []  # hosts (and subdomains) or host:port a run may also fetch, any address
SACORPUS_HOSTS: dict[str, str | list[str]] = {}  # name -> address(es), answered before DNS (like /etc/hosts)
SACORPUS_HOSTS_ONLY = False  # resolve from SACORPUS_HOSTS alone (tests: no DNS query leaves the machine)
SACORPUS_RETRY_ENABLED = True
SACORPUS_RETRY_BACKOFF_BASE = 2.0  # seconds; attempt n waits base * 2**n (+/-25%) when no Retry-After
SACORPUS_RETRY_BACKOFF_MAX = 120.0  # cap on one backoff wait (and on the raised slot delay)
SACORPUS_RETRY_AFTER_MAX = 600.0  # a longer Retry-After is not waited for: given up and counted
SACORPUS_BROWSER_UA_RETRY = False  # for every publication; else only where its file says browser_ua_retry
SACORPUS_BROWSER_UA = None  # None: a current desktop Chrome User-Agent
SACORPUS_GZIP_SNIFF_ENABLED = True  # also undo gzip bodies served without Content-Encoding
SACORPUS_REDIRECT_LOOP_ENABLED = True
HTTPERROR_ALLOW_ALL = False
COOKIES_ENABLED = False
TELNETCONSOLE_ENABLED = False
REQUEST_FINGERPRINTER_IMPLEMENTATION = "2.7"
TWISTED_REACTOR = "twisted.internet.asyncioreactor.AsyncioSelectorReactor"
FEED_EXPORT_ENCODING = "utf-8"
LOG_LEVEL = os.environ.get("SACORPUS_LOG_LEVEL", "INFO")

# --- bounded memory and resumability ----------------------------------------------------------------
# Each spider gets its own JOBDIR unless one is given (`-s JOBDIR=...`; `-s JOBDIR=` disables it),
# so requests wait on disk and an interrupted crawl resumes where it stopped.
SACORPUS_JOBDIR_ROOT = os.environ.get("SACORPUS_JOBDIR_ROOT", "jobs")
SCHEDULER_DISK_QUEUE = "scrapy.squeues.PickleLifoDiskQueue"
SCHEDULER_MEMORY_QUEUE = "scrapy.squeues.LifoMemoryQueue"
DEPTH_PRIORITY = 0

# --- sources ------------------------------------------------------------------------------------------
# Point a publication's sources at another host (fixture servers, local mirrors): "http://127.0.0.1:8080".
SACORPUS_SOURCE_BASE = None
SACORPUS_SITEMAP_MAX_DEPTH = 4  # sitemap index recursion
# Budgets: what one source may put in front of the crawl in one run (0: no limit); the rest is counted
# (sacorpus/budget/*) and comes in on a later run. Newest first; sources interleaved.
SACORPUS_FEED_MAX_ITEMS = 1000  # items read from one feed document, in the publisher's order
SACORPUS_SOURCE_MAX_ENTRIES = 2000  # article entries taken from one feed or sitemap document
SACORPUS_SITEMAP_MAX_CHILDREN = 100  # child sitemaps followed from one index (newest lastmod first)
SACORPUS_SITEMAP_MAX_DOCUMENTS = 500  # sitemap documents a run follows from indexes and robots.txt
SACORPUS_FOLLOW_LINKS = False  # follow article links found on fetched articles and section pages
SACORPUS_WAYBACK_BASE = "https://web.archive.org"
SACORPUS_WAYBACK_CDX_RATE = 1.0  # CDX calls per second at most
SACORPUS_REFETCH = False  # fetch URLs already in the store again

# --- item pipelines, in order -------------------------------------------------------------------------
ITEM_PIPELINES = {
    # gzip, decode, pre-clean and extract: the steps of the one page core (sacorpus.text.page)
    "sacorpus.pipelines.page.PagePipeline": 300,
    "sacorpus.pipelines.language.LanguagePipeline": 400,
    "sacorpus.pipelines.tokenize.TokenizePipeline": 500,
    "sacorpus.pipelines.annotate.AnnotatePipeline": 550,  # off unless SACORPUS_ANNOTATE_ENABLED
    "sacorpus.pipelines.dedup.DedupPipeline": 600,
    "sacorpus.pipelines.store.StorePipeline": 900,
}
SACORPUS_EXTRACT_ENABLED = True  # the page stage (300): decoding and extraction
SACORPUS_GZIP_ENABLED = True  # its step that undoes content codings the download layer left
SACORPUS_GZIP_MAX_BYTES = 50 * 1024 * 1024  # decompression-bomb cap
SACORPUS_PRECLEAN_ENABLED = True  # its pre-cleaning step (hidden text, publication filters, block spacing)
SACORPUS_LANGUAGE_ENABLED = True
SACORPUS_TOKENIZE_ENABLED = True
# Page workers: the page core, language identification and tokenization (stages 300-500) in this many
# worker processes (0: in the crawl's process). The output is the same either way. Measured
# (benchmarks/crawl_cost.py): 1 costs the same CPU a page, keeps the crawl's process at ~300 MB instead
# of ~560 and uses a second core; README "Page workers". 0 by default until every test runs with it.
SACORPUS_PAGE_WORKERS = 0
SACORPUS_PAGE_WORKERS_START = "spawn"  # how they start: "spawn" or "forkserver" (never fork: threads)
SACORPUS_DEDUP_ENABLED = True
SACORPUS_STORE_ENABLED = True

# --- dedup --------------------------------------------------------------------------------------------
SACORPUS_DEDUP_MIN_SENTENCE_CHARS = 20  # shorter sentences are not hashed
SACORPUS_DEDUP_MAX_ARTICLES_PER_SENTENCE = 10  # sentences in more articles are boilerplate
SACORPUS_DEDUP_DUPLICATE = 0.8  # similarity at or above: "duplicate"
SACORPUS_DEDUP_SIMILAR = 0.3  # similarity at or above: "similar"
SACORPUS_DEDUP_WEIGHT_RARE = False  # weight sentences by rarity (measured: no gain, see benchmarks/dedup.py)
SACORPUS_DEDUP_WEIGHT_LONG = False  # weight sentences by length (measured: slight gain)
SACORPUS_DEDUP_FUZZY_BITS = 14  # SimHash distance for reworded sentences to count half (0: off)
SACORPUS_DEDUP_MAX_CANDIDATES = 50  # articles compared at most per new article
SACORPUS_DEDUP_MAX_IDS = 64  # article ids kept per sentence hash (above MAX_ARTICLES_PER_SENTENCE)
# dedup --rebuild keeps its index in memory up to about this size (about 2.3 KB an article of 46 sentences),
# then writes it to the store, which answers from there on: a large corpus is rebuilt in bounded memory
SACORPUS_DEDUP_REBUILD_MEMORY_MB = 150
# processes that fingerprint the next articles while dedup --rebuild labels (None: one where there are two
# cores; 0: none)
SACORPUS_DEDUP_REBUILD_WORKERS = None

# --- storage --------------------------------------------------------------------------------------------
# Backends are chosen by import path. SACORPUS_STORE = None: MongoDB when the MONGO_URI setting is set
# (-s, scrapyd setting=, or the environment), else SQLite; resolved from the crawl's final settings
# (sacorpus.storage.base.store_path), never at import time.
MONGO_URI = os.environ.get("MONGO_URI") or None
MONGO_DATABASE = os.environ.get("MONGO_DATABASE", "sacorpus")
SACORPUS_STORE = None
SACORPUS_SQLITE_PATH = os.environ.get("SACORPUS_SQLITE_PATH", "data/corpus.sqlite")
SACORPUS_STORE_BATCH_SIZE = 50
SACORPUS_STORE_FLUSH_SECONDS = 5  # a partial batch is written at least this often
# back-pressure: a batch is also written once its pages' text, HTML and body reach this many MB, and an
# item waits while more than this many batches wait for the store's thread (the buffered articles were
# unbounded: the pipeline outran the writer and held hundreds of pages' HTML)
SACORPUS_STORE_BATCH_MB = 8.0
SACORPUS_STORE_MAX_PENDING = 2
SACORPUS_STORE_RETRIES = 3  # a failed batch write is retried with backoff ...
SACORPUS_STORE_RETRY_BACKOFF = 1.0
SACORPUS_STORE_COOLOFF_SECONDS = 30.0  # after a write failed for good, spill at once for this long
# ... then spilled to that store's own file (put the folder on another disk than the store), re-imported
# by that store alone when it next opens; SACORPUS_STORE_SPILL_PATH names one file instead
SACORPUS_STORE_SPILL_DIR = "data/spill"
SACORPUS_STORE_SPILL_PATH = None
SACORPUS_SQLITE_CACHE_MB = 64
# the SQLite store's memory map (MB; None: 4 x SACORPUS_SQLITE_CACHE_MB). A crawl's store maps none: the
# mapped pages count in the crawl's resident memory and grow with the store (measured: 743 -> 679 MB peak RSS
# at 3,000 pages), and its random dedup lookups are served by the page cache all the same
SACORPUS_SQLITE_MMAP_MB = None
SACORPUS_CRAWL_SQLITE_MMAP_MB = 0
# a crawl's SQLite page cache (MB). Apart from the commands' for the same
# reason: it fills as the store grows and stays resident for the whole run (measured at 1,000 pages: 40 MB
# less peak anonymous memory with 8 MB than with 64, and the same dedup and store CPU per page)
SACORPUS_CRAWL_SQLITE_CACHE_MB = 16
SACORPUS_SQLITE_TIMEOUT = 30.0  # seconds a write waits for another writer's lock before it fails
MONGO_TIMEOUT_MS = (
    5000  # server selection and connect timeout: an unreachable server stops a crawl in seconds
)
# after a MongoDB server could not be reached, store calls fail at once for this long (no 10 s wait each)
SACORPUS_STORE_FAIL_FAST_SECONDS = 5.0

# --- compact storage, indexed search, kept counts --------------------------------------------------------
# zstd level of raw bodies and decoded HTML, chosen with benchmarks/scale.py on real pages: level 6 keeps
# 98% of level 9's saving (ratio 5.10 vs 5.19) at twice its speed; level 3 is 5x faster again but 7% larger
SACORPUS_STORE_ZSTD_LEVEL = 6
# rows rewritten per transaction by `scrapy compact` (and per progress step)
SACORPUS_COMPACT_BATCH = 500
# SQLite page cache (and a 4x memory map) of the corpus commands, which stream rows once
SACORPUS_CORPUS_SQLITE_CACHE_MB = 16

# --- extensions ------------------------------------------------------------------------------------------
EXTENSIONS = {
    # freed memory back to the system during a long crawl; first, so glibc is tuned before stages load
    "sacorpus.allocator.AllocatorRelease": 50,
    "sacorpus.collector.CollectorThresholds": 55,  # the cyclic garbage collector runs less often
    "sacorpus.health.extension.CrawlHealth": 80,  # the run's health record, while the store is still open
    "sacorpus.candidates.SourceCandidates": 85,  # other sites' feeds/sitemaps seen, while the store is open
    "sacorpus.runlock.RunLock": 90,  # one run per spider and store; before the store so it releases first
    "sacorpus.storage.shared.SharedStore": 100,  # the crawl's one store: spider, dedup and store stages share it
    "sacorpus.extensions.CrawlSummary": 500,
}
SACORPUS_SUMMARY_ENABLED = True
# glibc only (sacorpus/allocator.py): malloc_trim every this many items (0: never), and blocks of this many
# KB and more from mappings of their own (0: glibc's moving threshold); measured at 1,000 pages: free heap
# of about 45 MB handed back
SACORPUS_MALLOC_TRIM_EVERY = 100
SACORPUS_MALLOC_MMAP_THRESHOLD_KB = 128
# the cyclic garbage collector's thresholds in a crawl and its page workers (sacorpus/collector.py; empty:
# Python's 700, 10, 10); measured at 1,000 pages: 4.7 -> 0.7 CPU seconds of collections, the same collected
SACORPUS_GC_THRESHOLDS = (20000, 20, 20)
DOWNLOAD_SLOTS = {"wayback-cdx": {"concurrency": 1, "delay": 1.0}}  # SACORPUS_WAYBACK_CDX_RATE applies

# --- frontier, incremental runs, Wayback (crawl-level) ---------------------------------------------------
# A seen-request filter on disk (JOBDIR/requests.seen.sqlite) with a bounded RAM cache, and a
# scheduler that recovers a JOBDIR after kill -9 (see sacorpus/frontier/).
SCHEDULER = "sacorpus.frontier.scheduler.ResumableScheduler"
DUPEFILTER_CLASS = "sacorpus.frontier.dupefilter.DiskDupeFilter"
SACORPUS_SEEN_CACHE_SIZE = 100_000  # fingerprints kept in RAM (the rest are on disk)
SACORPUS_SEEN_FLUSH_EVERY = 1000  # fingerprints written per batch
SACORPUS_CONDITIONAL_GET = True  # If-None-Match / If-Modified-Since for feeds and sitemaps
SACORPUS_WAYBACK_MODE = "auto"  # cdx | homepage | both | auto (both when the publication names a homepage)
SACORPUS_WAYBACK_CDX_LIMIT = 5000  # captures per CDX page (paged on with resume keys)

# --- distributed crawls (sacorpus/distributed.py): several workers share one Redis frontier -------------
SACORPUS_REDIS_URL = os.environ.get("SACORPUS_REDIS_URL") or os.environ.get("REDIS_URL") or None
SACORPUS_REDIS_KEY_PREFIX = "sacorpus"  # keys <prefix>:<spider>:requests|seen|workers
SACORPUS_REDIS_HEARTBEAT = 10.0  # seconds; a worker silent for 3 heartbeats counts as gone
# Queued requests are plain JSON (never pickle); with a key shared by the workers each entry is signed
# (HMAC-SHA256) and the seen-set holds keyed fingerprints, so a writer without the key can neither run
# nor suppress anything.
SACORPUS_REDIS_SIGNING_KEY = os.environ.get("SACORPUS_REDIS_SIGNING_KEY") or None
SACORPUS_REDACT_LOGS = True  # passwords in URIs and password parameters masked in every log line
ADDONS = {
    "sacorpus.redact.RedactSecretsAddon": 0,  # first, before anything logs a URI
    "sacorpus.distributed.RedisFrontierAddon": 100,  # does nothing unless SACORPUS_REDIS_URL is set
    "sacorpus.runsettings.RunSettingsAddon": 200,  # USER_AGENT from the run's SACORPUS_CONTACT_URL
}

# --- unattended operation: one run at a time, crawl health (README "Unattended operation") ------------
# A second run of a spider with the same JOBDIR or the same store refuses to start (exit 1). The JOBDIR
# and an SQLite store are locked with file locks that end with the process; MongoDB holds a lease that
# the run renews every third of its length, so a killed run blocks the next for one length at most.
# Distributed workers (SACORPUS_REDIS_URL) take no lock.
SACORPUS_RUN_LOCK_ENABLED = True
SACORPUS_RUN_LOCK_SECONDS = 120.0
# Crawl health (sacorpus/health/): one record per publication and run in the store, a summary and
# alarms in the log; `scrapy health` prints the history.
SACORPUS_HEALTH_ENABLED = True
SACORPUS_HEALTH_SHORT_TEXT_CHARS = 200  # a text shorter than this is "empty or short" (bot wall, paywall)
SACORPUS_HEALTH_SHORT_SHARE = 0.5  # alarm when at least this share of a run's texts is empty or short
SACORPUS_HEALTH_HISTORY_RUNS = 10  # earlier runs a run is compared with (fewer new articles than usual)

# --- scheduling: `scrapy schedule` starts crawls at each feed's own pace (sacorpus/scheduling) ---------
# The clamps of the adaptive poll interval (seconds); the crawls and the scheduler read the same ones.
SACORPUS_POLL_MIN_INTERVAL = 300  # 5 minutes
SACORPUS_POLL_MAX_INTERVAL = 43_200  # 12 hours
SACORPUS_POLL_DEFAULT_INTERVAL = 1800  # a feed with too little history: every 30 minutes
# A clock faster than real time (trial runs of a pace, tests): simulated time equals real time at the
# origin (epoch seconds) and runs SPEED times faster after it; the scheduler passes both to its crawls.
SACORPUS_CLOCK_ORIGIN = None  # None: now, when the clock is sped up
SACORPUS_CLOCK_SPEED = 1.0
SACORPUS_SCHEDULE_MAX_CONCURRENT = 2  # crawls running at once (`--max-concurrent`)
SACORPUS_SCHEDULE_TIMEOUT = 6 * 3600  # real seconds before a crawl is stopped as hung (`--timeout`)
SACORPUS_SCHEDULE_KILL_AFTER = 60  # real seconds between asking a crawl to stop and killing it
SACORPUS_SCHEDULE_BACKOFF = 600  # real seconds before a failed publication is retried; doubles per failure
SACORPUS_SCHEDULE_BACKOFF_MAX = 6 * 3600
SACORPUS_SCHEDULE_SCRAPYD_PROJECT = "sacorpus"  # the project name the egg was deployed under
# Publication files outside the package (validated like the shipped ones); each one gets a spider
SACORPUS_PUBLICATIONS_DIR = os.environ.get("SACORPUS_PUBLICATIONS_DIR", "")
SPIDER_LOADER_CLASS = "sacorpus.spider_loader.PublicationSpiderLoader"

# --- scrapy newpub: learning a new publication from its homepage (sacorpus/newpub/) ---------------------
SACORPUS_NEWPUB_SAMPLES = 5  # article pages sampled (`--samples`): rules must hold on every one

# --- JavaScript rendering (sacorpus.rendering): only article pages a publication's [render] table names --
# Nothing of it is installed for a publication without a [render] table: no handler, no browser.
SACORPUS_RENDER_ENABLED = True
SACORPUS_RENDERER = None  # "playwright" | "splash"; None: splash when SPLASH_URL is set, else playwright
SACORPUS_CHROMIUM_PATH = os.environ.get("SACORPUS_CHROMIUM_PATH", "/usr/bin/chromium")  # Debian's chromium
SACORPUS_RENDER_MAX_PAGES = 4  # browser pages open at once (one context, reused; each page closed after use)
SACORPUS_RENDER_BLOCK_RESOURCES = ["image", "media", "font"]  # never fetched by the browser: text needs none
SPLASH_URL = os.environ.get("SPLASH_URL") or None  # a Splash service: http://[user:password@]host:8050
SACORPUS_SPLASH_WAIT = 2.0  # seconds Splash waits when a publication names wait_for but no wait

# --- the corpus browser (`scrapy serve`, sacorpus/web): read-only pages over the configured store -------
# Loopback by default: the browser has no login, so anyone who can reach the address can read the corpus.
SACORPUS_SERVE_HOST = "127.0.0.1"
SACORPUS_SERVE_PORT = 8017  # 0: any free port (the address is printed)
SACORPUS_SERVE_PAGE_SIZE = 50  # rows per page (search hits, concordance lines, words, collocates)
SACORPUS_SERVE_MAX_LINES = 20_000  # concordance lines kept for sorting and downloads (the rest counted)
SACORPUS_SERVE_WORKERS = 4  # threads that read the store (a slow scan never blocks the other pages)

# --- reader comments (sacorpus.spiders.sources.comments, sacorpus.pipelines.comments) --------------------
# Read when a run asks (-a comments=1, or -a sources=comments for comments alone) for a publication whose
# file has a [comments] table; stored in their own table/collection, counted apart from articles.
ITEM_PIPELINES = {
    **ITEM_PIPELINES,
    "sacorpus.pipelines.comments.CommentTextPipeline": 310,  # the comment's text, cleaned like an article's
    "sacorpus.pipelines.comments.CommentStorePipeline": 890,  # the comments table (batched, spilled on outage)
}
SACORPUS_COMMENTS_ENABLED = True  # the two comment stages
SACORPUS_COMMENTS_CRAWL = False  # every crawl also reads comments (as -a comments=1): scheduled runs
SACORPUS_COMMENTS_POLL_INTERVAL = 86_400  # seconds between two polls of an open thread (daily)
SACORPUS_COMMENTS_MAX_AGE_DAYS = 30  # a thread older than this is read once more, then done
SACORPUS_COMMENTS_MAX_THREADS = 1000  # threads one run polls at most (the longest overdue first)
SACORPUS_DISQUS_API_BASE = "https://disqus.com/api/3.0"  # the API the Disqus embed loads its JSON from
SACORPUS_DISQUS_API_KEY = None  # None: the public key the embed itself sends
SACORPUS_DISQUS_PAGE_SIZE = 100  # comments per API page (the API's maximum)
SACORPUS_DISQUS_MAX_PAGES = 1000  # pages of one thread read in one poll (100,000 comments)

# --- part of speech and lemmas (sacorpus.text.tagging): the optional annotate stage (550) --------------
# Off by default: tagging costs CPU on every article. English and Afrikaans models ship with the package;
# sentences in other languages stay untagged. `scrapy annotate` tags what is already stored.
SACORPUS_ANNOTATE_ENABLED = False

# --- publication check-up (`scrapy check-publications`) and source candidates (`scrapy sources`) -------
SACORPUS_CHECK_TIMEOUT = 30.0  # seconds per URL the check-up fetches
SACORPUS_CHECK_MAX_BYTES = 20 * 1024 * 1024  # a feed, sitemap or article larger than this is an error
# Other sites' feeds and sitemaps that crawled pages link to are recorded (never fetched) as candidates
SACORPUS_CANDIDATES_ENABLED = True
SACORPUS_CANDIDATES_MAX = 5000  # distinct candidates one run keeps (more are counted in stats only)

"""Browse the demo site or a fixture site in a web browser: ``python -m sacorpus.demo [--port P]``."""

from __future__ import annotations

import argparse
import threading

from sacorpus.demo.server import SiteServer, directory_resources


def main(argv: list[str] | None = None) -> None:
    """``python -m sacorpus.demo [--port P] [--directory DIR]``: browse the demo or a fixture site."""
    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument(
        "--directory", help="serve a fixture site directory (tests/sites/<slug>) instead of the demo"
    )
    parser.add_argument("--list", action="store_true", help="print every URL served")
    args = parser.parse_args(argv)
    if args.directory:
        resources = directory_resources(args.directory)
    else:
        from sacorpus.demo.site import build_site

        resources = build_site()
    site = SiteServer(resources, port=args.port).start()
    print(f"serving {len(resources)} resources at {site.base_url}/ (Ctrl-C to stop)")
    if args.list:
        for path in site.paths():
            print(f"  {site.url(path)}")
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        pass
    finally:
        site.stop()


if __name__ == "__main__":
    main()

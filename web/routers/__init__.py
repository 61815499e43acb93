"""One router per page or API area; :mod:`web.app` assembles them."""

"""One router per page or API area; :mod:`web.api.app` assembles them."""

"""What both web apps stand on, the board's (``web``) and the tournament hub's (``hub``).

The languages and their catalogs (``i18n``, ``catalogs``, ``page_texts``, ``locale/``); the
referee's login (``auth``, ``sessions``, ``pin``); what every request passes (``guards``,
``validation_words``, ``json_body``) and the typed values bodies and answers are made of
(``schemas``); the live socket (``broadcaster``); how uvicorn runs them (``serving``) and
stops on Ctrl-C or SIGTERM (``stop``, which the puzzle's server uses too); systemd's
watchdog (``watchdog``); the page files both apps serve (``page_files``, ``page_parts``,
``static/``); spreadsheets (``spreadsheet_csv``) and the version (``version``). It imports
nothing of either app.
"""

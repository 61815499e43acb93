"""What both web apps stand on, the board's (``web``) and the tournament hub's (``hub``).

The languages and their catalogs (``i18n``, ``catalogs``, ``page_texts``, ``locale/``); the
referee's login (``auth``, ``sessions``, ``pin``); what every request passes (``guards``,
``validation_words``, ``json_body``) and the typed values bodies and answers are made of
(``schemas``); the live socket (``broadcaster``); systemd's watchdog (``watchdog``); the page
files both apps serve (``page_files``, ``page_parts``, ``static/``); spreadsheets
(``spreadsheet_csv``) and the version (``version``). It imports nothing of either app.
"""

"""What a board and the tournament hub say to each other: the one contract both import.

``wire``: the MQTT topics, the payloads and their one decoder, connecting; ``broker``: the
broker's address and credentials; ``offer``: the tournament game offered to a board;
``selftest_wire``: a board's last self-test as it is published. The board's side of the link
lives in the board's app (``web.tournament``), the hub's in ``hub``; neither is imported here.
"""

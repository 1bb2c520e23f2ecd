"""Phones at the table: the tablet serves its running session to the players' browsers.

`tokens` says who may come in, `table` turns phone commands into session calls exactly
once, `view` says what a phone shows, and `server` carries both over HTTP and WebSocket
on the local network.  The tablet's session stays the only truth; a phone only renders
what the rules offer and sends back what a player chose or what its camera read.
"""

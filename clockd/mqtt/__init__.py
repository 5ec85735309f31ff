"""Many machines, one desk: table nodes and the referee's desk through an MQTT broker.

A *table node* (``duelclock run --node NAME --mqtt URL``) is an ordinary daemon for its own
tables: it times them and journals every press before it acknowledges the device. It also
publishes its journal to the broker and carries out the commands of the desk. The *desk*
(``duelclock run --desk --mqtt URL``) takes every node's journal into its own exactly once
(by node and sequence number), runs the events and serves the GUI, the CLI and the web pages
with every table of every node. See ``docs/mqtt.md`` for the topics, payloads and faults.
"""

"""Pure logic shared by the tray, the die and the app: no hardware, no clock, no I/O."""

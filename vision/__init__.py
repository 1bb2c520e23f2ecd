"""Cards: printable QR labels and the camera scanner that reads them at the table.

`payload` is the label format, `labels` prints it, `decode` reads codes in one frame,
`frames` brings frames from a camera, a video or a folder, `tracker` turns per-frame reads
into "card seen" facts, `scanner` runs all that off the UI thread, and `answering` hands a
seen card to the session.  Nothing here imports Kivy: the app observes the scanner.
"""

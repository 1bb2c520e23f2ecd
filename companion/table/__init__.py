"""The table layer: what happens at the table between a device and the open session.

Answering a request with rolled dice (`dice_answers`: a die's face becomes the game value
the request's profile gives it), which die plays which role (`assignments`), the app's
dice sources and where their rolls go (`dice_hub`), camera dice (`dice_camera`, with what
the table's corrections teach it, `dice_tally`, the photos of its rolls kept to train on,
`dice_photos`, and the model that reads them, `dice_model`), and a card held up to the
camera becoming an answer or a command (`card_answers`).

Why a layer of its own, and where it sits: the adapters below it (`hardware/`, `vision/`)
only say what a device saw ("die 2 shows face 5", "this code was read") and import nothing
of the app, so each can be tested and replaced alone; the core and the games below it know
no device.  These application services join the two, so neither has to know the other.
Above it, the screens (`companion.ui`) and the phone host (`companion.host`) only show
what it holds and pass the table's taps to it; nothing here imports them or Kivy, so it
is tested without a window (import contracts in pyproject.toml).

    companion.ui, companion.host, companion.cli
                    |
              companion.table
               /            \\
    core, content, games    hardware, vision
"""

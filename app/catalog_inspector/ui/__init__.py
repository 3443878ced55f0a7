"""Qt widgets and item models. Renders state and sends user intents to the runtime; no protocol logic."""

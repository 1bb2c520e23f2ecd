"""Each game's own views: companion/ui/games/<game>/ with build_view(session)."""

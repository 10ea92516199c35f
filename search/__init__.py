"""The engine (issue 3): evaluation and alpha-beta search over the rules in `variants`."""

"""Games between players: internal engines and external UCI/XBoard engines, matches,
tournaments and their statistics."""

"""Figures from run folders (reads files only, never the engine)."""

"""Shared board geometry: square grids with edge walls and doors, and hex tiles."""

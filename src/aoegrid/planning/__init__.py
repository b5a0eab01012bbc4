"""Tactics: where to put an area, and what threatens a square. Above the public
objects (``Area``, ``BattleMap``).
"""

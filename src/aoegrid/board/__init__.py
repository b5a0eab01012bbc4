"""The battle map's board: walls and what they block (line of sight and effect, spreads
around walls), floors and heights, the battle map's core and hex cells. Above
:mod:`aoegrid.geometry`.
"""

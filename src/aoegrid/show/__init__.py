"""Pictures: matplotlib plots, hex plots, previews without matplotlib and text pictures.
Above :mod:`aoegrid.effects`; ``Area``, ``HexArea`` and ``BattleMap`` draw themselves
with it.
"""

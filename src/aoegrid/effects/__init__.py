"""Areas computed (no pictures): results, building, movement, targets, ranges and the
systems' extras (sw5e, savage_worlds, lancer). Above :mod:`aoegrid.board`.
"""

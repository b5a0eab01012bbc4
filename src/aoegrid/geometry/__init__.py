"""The base layer: grids (square, hex, gridless) and the lattice interface they share,
shapes, rules, distances, directions, regions, rasters, stencils, tokens, terrain
and options. Imports nothing of aoegrid's but :mod:`aoegrid.errors`.
"""

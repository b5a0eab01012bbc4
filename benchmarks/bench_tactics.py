"""Tactics: the best placement of a 20-ft burst, and score maps, against brute force.

Run from the repository root (aoegrid installed)::

    python benchmarks/bench_tactics.py           # full run (~2 minutes)
    python benchmarks/bench_tactics.py --quick   # CI smoke run

The brute force is the loop :func:`aoegrid.best_placements` must equal:
``ag.area(...)`` and ``.tokens()`` at every legal origin (the legal origins
are listed beforehand, outside its timing), keeping the best by the same
order. Fast path and brute force are timed back to back in each of five
rounds (the fast path's median of seven calls); times are medians over the
rounds, and the ratio is the median of the rounds' brute force over fast
path, so a busy machine slows both sides of a ratio alike. Cases (Starfinder, a 20-ft burst, the
caster's range medium at level 5 or long at level 5, hit the enemies, avoid
the allies):

1. 40 x 40 squares, 40 walls, 30 creatures (enemies and allies mixed, some
   large): target at least 50 times faster;
2. the same creatures in open field: at least 200 times faster;
3. 200 x 200 squares, 2,000 walls 1 to 4 squares long (scattered cover),
   300 creatures: at least 100 times faster; the brute force there is
   estimated from a timed random sample of origins (per-origin median times
   the number of legal origins);
4. the same with walls 1 to 8 squares long, no target: the caster sees few
   origins (about 460), so the brute force is short, and the fast path's
   floor (the caster's line of effect over the whole map, five visibility
   polygons, in :func:`aoegrid.legal_origins`) weighs more.

``placement_scores`` (the whole map's score array) is timed on each map in
the same table, against the same brute-force loop.

Heights (issue 20), on the 40 x 40 map with a third of its creatures flying
20 ft up: the origin searched at three heights (``elevation=[0, 10, 20]``),
against the brute force at every legal (origin, height) pair: ``ag.area(...,
elevation=)`` and ``.tokens()``, the origins at each height listed
beforehand (range counted in three dimensions). Target at least 30 times
faster: away from the ground no creature stands level with every origin, so
more areas are built than on the ground alone.

Move, then place (``move=30``, issue 19), on the 40 x 40 map: the caster
moves up to 30 ft before placing the 20-ft burst at range 100 ft. Its brute
force is ``best_placements`` (without ``move=``) from every square the
caster can reach, best of all, ties to fewer feet moved: target at least 30
times faster; and it should cost at most 5 times the same search without
moving (the caster where it starts), since a point's score does not depend
on where the caster stands, only its legality does. The three are timed
side by side in each round, each call with the map's kept answers cleared
first (visibility polygons, legal origins: ``BattleMap.kept``), so that
none reads what an earlier call of the same query left.
"""

from __future__ import annotations

import argparse
import statistics
import time
import warnings

import numpy as np
from _timing import median_time

import aoegrid as ag

SHAPE = ag.Sphere(20)


def creatures(n: int, size: int, seed: int) -> list[ag.Token]:
    rng = np.random.default_rng(seed)
    out = []
    for k in range(n):
        big = rng.random() < 0.15
        fw = 2 if big else 1
        x, y = (int(v) for v in rng.integers(0, size - fw + 1, 2))
        out.append(ag.Token(x, y, size="large" if big else "medium", name=f"c{k}",
                            tags={"enemy" if rng.random() < 0.6 else "ally"}))
    return out


def walls(n: int, size: int, seed: int, longest: float) -> list[ag.Wall]:
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        x, y = rng.uniform(0, size, 2)
        a, length = rng.uniform(0, 2 * np.pi), rng.uniform(1, longest)
        out.append(ag.Wall((x, y), (x + length * np.cos(a), y + length * np.sin(a))))
    return out


def make_map(size: int, n_walls: int, n_tokens: int, seed: int, longest: float) -> ag.BattleMap:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ag.AoegridWarning)  # a wall through a creature is fine here
        return ag.BattleMap(ag.Grid(size, size), walls=walls(n_walls, size, seed, longest), tokens=creatures(n_tokens, size, seed))


def brute_one(m: ag.BattleMap, p: tuple[float, float]) -> tuple[int, int]:
    reached = ag.area(SHAPE, at=p, on=m).tokens()
    return sum("enemy" in r.token.tags for r in reached), sum("ally" in r.token.tags for r in reached)


def brute_best(m: ag.BattleMap, points: list[tuple[int, int]], dist: dict) -> tuple[float, ...] | None:
    best = None
    for p in points:
        hits, avoided = brute_one(m, p)
        if avoided:
            continue
        key = (-hits, avoided, dist[p], p[1], p[0])
        best = key if best is None or key < best else best
    return best


def brute_scores(m: ag.BattleMap, points: list[tuple[int, int]]) -> np.ndarray:
    out = np.full((m.grid.height + 1, m.grid.width + 1), np.nan)
    for p in points:
        hits, avoided = brute_one(m, p)
        if not avoided:
            out[p[1], p[0]] = hits
    return out


def case(name: str, m: ag.BattleMap, rng: ag.Range, caster: ag.Token, repeats: int, rounds: int,
         sample: int | None, target: float | None) -> list[tuple[str, ...]]:
    """Rounds of (fast path, brute force) timed back to back; the ratio is the median of the rounds'."""
    args = {"caster": caster, "range": rng, "on": m, "rules": "starfinder", "hit": {"enemy"}, "avoid": {"ally"}}
    o = ag.legal_origins(SHAPE, caster=caster, range=rng, on=m)
    points = o.points()
    sf = ag.Rules.preset("starfinder")
    dist = {p: float(ag.effects.ranges.space_distances(o.caster, p[0], p[1], sf, m.grid)) for p in points}
    best = ag.best_placements(SHAPE, **args)[0]
    if sample is None:
        how = f"all {len(points)} origins"
        want = brute_best(m, points, dist)
        assert want == (-best.score, 0, best.distance, best.at[1], best.at[0]), (want, best)
        assert np.array_equal(brute_scores(m, points), ag.placement_scores(SHAPE, **args), equal_nan=True)

        def brute() -> float:
            t0 = time.perf_counter()
            brute_best(m, points, dist)
            return time.perf_counter() - t0
    else:
        pick = np.random.default_rng(7).choice(len(points), size=min(sample, len(points)), replace=False)
        how = f"est. from {len(pick)} of {len(points)} origins"

        def brute() -> float:
            per = []
            for k in pick:
                t0 = time.perf_counter()
                brute_one(m, points[k])
                per.append(time.perf_counter() - t0)
            return statistics.median(per) * len(points)
    fast_t, grid_t, brute_t = [], [], []
    for _ in range(rounds):
        fast_t.append(median_time(lambda: ag.best_placements(SHAPE, **args), repeats))
        grid_t.append(median_time(lambda: ag.placement_scores(SHAPE, **args), max(1, repeats // 3)))
        brute_t.append(brute())
    ratio = statistics.median(b / f for b, f in zip(brute_t, fast_t))
    grid_ratio = statistics.median(b / g for b, g in zip(brute_t, grid_t))
    fast, grid, slow = (statistics.median(t) * 1e3 for t in (fast_t, grid_t, brute_t))
    return [
        (name, "best_placements", f"{fast:9.1f}", f"{slow:10.0f}", f"{ratio:7.0f}x",
         "-" if target is None else f">= {target:g}x", "" if target is None else "ok" if ratio >= target else "MISSED",
         how),
        (name, "placement_scores", f"{grid:9.1f}", f"{slow:10.0f}", f"{grid_ratio:7.1f}x", "-", "", how),
    ]


def heights_case(name: str, m: ag.BattleMap, rng: ag.Range, caster: ag.Token, heights: list[float], repeats: int,
                 rounds: int) -> list[tuple[str, ...]]:
    """Rounds of (search over ``heights``, brute force at every legal (origin, height)) timed back to back."""
    args = {"caster": caster, "range": rng, "on": m, "rules": "starfinder", "hit": {"enemy"}, "avoid": {"ally"},
            "elevation": heights}
    sf = ag.Rules.preset("starfinder")
    pairs = []  # (height, point, distance in 3D), listed outside the timing
    for z in heights:
        o = ag.legal_origins(SHAPE, caster=caster, range=rng, on=m, elevation=z)
        rise = ag.effects.ranges.caster_rise(caster, z, m.grid.square)
        pairs += [(z, p, float(ag.effects.ranges.space_distances(o.caster, p[0], p[1], sf, m.grid, rise))) for p in o.points()]

    def brute_best() -> tuple[float, ...] | None:
        best = None
        for z, p, d in pairs:
            reached = ag.area(SHAPE, at=p, on=m, elevation=z).tokens()
            if any("ally" in r.token.tags for r in reached):
                continue
            key = (-sum("enemy" in r.token.tags for r in reached), 0, d, abs(z), z, p[1], p[0])
            best = key if best is None or key < best else best
        return best

    best = ag.best_placements(SHAPE, **args)[0]
    want = brute_best()
    assert want == (-best.score, 0, best.distance, abs(best.elevation), best.elevation, best.at[1], best.at[0]), (
        want, best)

    def brute() -> float:
        t0 = time.perf_counter()
        brute_best()
        return time.perf_counter() - t0

    fast_t, brute_t = [], []
    for _ in range(rounds):
        fast_t.append(median_time(lambda: ag.best_placements(SHAPE, **args), repeats))
        brute_t.append(brute())
    ratio = statistics.median(b / f for b, f in zip(brute_t, fast_t))
    fast, slow = (statistics.median(t) * 1e3 for t in (fast_t, brute_t))
    return [(name, f"best_placements elevation={heights}", f"{fast:9.1f}", f"{slow:10.0f}", f"{ratio:7.0f}x", ">= 30x",
             "ok" if ratio >= 30 else "MISSED", f"all {len(pairs)} (origin, height) pairs")]


def move_case(name: str, m: ag.BattleMap, rng: float, caster: ag.Token, move: float, repeats: int,
              rounds: int) -> list[tuple[str, ...]]:
    """Rounds of (move search, brute force over the reachable squares, search standing still), timed cold."""
    args = {"range": rng, "on": m, "rules": "starfinder", "hit": {"enemy"}, "avoid": {"ally"}}
    reach = ag.reachable(caster, move, on=m)
    squares = reach.squares

    def brute() -> tuple[float, ...] | None:
        best = None
        for x, y in squares:
            found = ag.best_placements(SHAPE, caster=caster.moved_to(x, y), **args)
            if found:
                p = found[0]
                key = (-p.score, float(reach.cost[y, x]), len(p.avoided), p.distance, p.at[1], p.at[0], y, x)
                best = key if best is None or key < best else best
        return best

    def clear() -> None:
        m._prepared.kept.clear()

    p = ag.best_placements(SHAPE, caster=caster, move=move, **args)[0]
    assert p.stand is not None
    got = (-p.score, p.cost, len(p.avoided), p.distance, p.at[1], p.at[0], p.stand.y, p.stand.x)
    assert brute() == got, (brute(), got)
    fast_t, brute_t, still_t = [], [], []
    for _ in range(rounds):
        fast_t.append(median_time(lambda: ag.best_placements(SHAPE, caster=caster, move=move, **args), repeats, clear))
        brute_t.append(median_time(brute, 1, clear))
        still_t.append(median_time(lambda: ag.best_placements(SHAPE, caster=caster, **args), repeats, clear))
    faster = statistics.median(b / f for b, f in zip(brute_t, fast_t))
    dearer = statistics.median(f / s for f, s in zip(fast_t, still_t))
    fast, slow, still = (statistics.median(t) * 1e3 for t in (fast_t, brute_t, still_t))
    query = f"best_placements move={move:g}"
    return [
        (name, query, f"{fast:9.1f}", f"{slow:10.0f}", f"{faster:7.0f}x", ">= 30x", "ok" if faster >= 30 else "MISSED",
         f"best_placements from all {len(squares)} squares reached"),
        (name, query, f"{fast:9.1f}", f"{still:10.1f}", f"{dearer:7.1f}x", "<= 5x", "ok" if dearer <= 5 else "MISSED",
         "the same search standing still (brute ms: its time)"),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="one repeat, a small sample: a smoke run")
    quick = parser.parse_args().quick
    repeats, rounds = (1, 1) if quick else (7, 5)
    medium, long_ = ag.Range("medium", level=5), ag.Range("long", level=5)
    walled = make_map(40, 40, 30, seed=3, longest=8)
    open_field = ag.BattleMap(walled.grid, tokens=walled.tokens)
    big = make_map(200, 2000, 300, seed=5, longest=4)
    dense = make_map(200, 2000, 300, seed=5, longest=8)
    rows = [("map", "query", "fast ms", "brute ms", "ratio", "target", "", "brute force over")]
    rows += case("40x40, 40 walls, 30 creatures", walled, medium, ag.Token(2, 20, name="wizard"), repeats,
                 rounds, None, 50)
    rows += case("40x40 open field, 30 creatures", open_field, medium, ag.Token(2, 20, name="wizard"), repeats,
                 rounds, None, 200)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ag.AoegridWarning)  # a wall through a creature is fine here
        flying = ag.BattleMap(walled.grid, walls=walled.walls, tokens=[
            t if k % 3 else ag.Token(t.x, t.y, size=t.size, name=t.name, tags=t.tags, elevation=20)
            for k, t in enumerate(walled.tokens)])
    rows += heights_case("40x40, 40 walls, 30 creatures, 10 flying", flying, medium, ag.Token(2, 20, name="wizard"),
                         [0.0, 10.0, 20.0], repeats, rounds)
    rows += move_case("40x40, 40 walls, 30 creatures", walled, 100, ag.Token(2, 20, name="wizard"), 30, repeats, rounds)
    rows += case("200x200, 2000 walls (1-4 sq), 300 creatures", big, long_, ag.Token(100, 100, name="wizard"), repeats,
                 rounds, 50 if quick else 200, 100)
    rows += case("200x200, 2000 walls (1-8 sq), 300 creatures", dense, long_, ag.Token(100, 100, name="wizard"),
                 repeats, rounds, 50 if quick else 200, None)
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    for r in rows:
        print("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip())
    bench_threat(quick)


# --- threat maps (issue 19) -----------------------------------------------------------------------

#: Three casters on the 40 x 40 map, each moving 30 ft before a 20-ft burst at range 100 ft.
THREAT_CASTERS = (ag.Token(2, 20, name="west"), ag.Token(37, 5, name="north-east"), ag.Token(20, 35, name="south"))
THREAT_RANGE, THREAT_MOVE = 100, 30


def brute_threat(m: ag.BattleMap, pairs: list[tuple[ag.Token, tuple[float, float]]] | None = None) -> np.ndarray:
    """The issue's brute force: per caster, the union over every square it can move to and every legal origin
    from there of ``ag.area``'s squares; the count of casters per square. With ``pairs`` (caster, origin), only
    those areas are built (a timed sample)."""
    count = np.zeros(m.grid.shape, dtype=np.int64)
    for c in THREAT_CASTERS:
        union = np.zeros(m.grid.shape, dtype=bool)
        origins = [q for who, q in pairs if who is c] if pairs is not None else [
            o.origin_of(p) for o in threat_origins(m, c) for p in o.points()]
        for q in origins:
            union |= ag.area(SHAPE, at=q, on=m).mask
        count += union
    return count


def threat_origins(m: ag.BattleMap, caster: ag.Token) -> list[ag.Origins]:
    """The caster's legal origins from every square its move reaches."""
    return [ag.legal_origins(SHAPE, caster=caster.moved_to(x, y), range=THREAT_RANGE, on=m)
            for x, y in ag.reachable(caster, THREAT_MOVE, on=m).squares]


def bench_threat(quick: bool) -> None:
    """``threat_map`` against the brute force on the 40 x 40 map (40 walls, 30 creatures): target 50x.

    Every call starts from the map's walls alone (its kept legal origins and
    visibilities cleared first), and so does the brute force. Each round
    times ``threat_map`` (the median of five calls) and the brute force back
    to back, the brute force estimated as the legal origins from every
    square the casters can move to (timed in full) plus the median of a
    sample of its areas times their number; the ratio is the median of the
    rounds'. The full run also times the whole brute force once and checks
    that the two agree.
    """
    m = make_map(40, 40, 30, seed=3, longest=8)
    clear = m._prepared.kept.clear

    def fast() -> ag.Threat:
        return ag.threat_map(SHAPE, casters=THREAT_CASTERS, range=THREAT_RANGE, move=THREAT_MOVE, on=m)

    def brute() -> tuple[float, int]:
        clear()
        t0 = time.perf_counter()
        pairs = [(c, o.origin_of(p)) for c in THREAT_CASTERS for o in threat_origins(m, c) for p in o.points()]
        listing = time.perf_counter() - t0
        per = []
        for k in np.random.default_rng(7).choice(len(pairs), size=min(100 if quick else 300, len(pairs)),
                                                         replace=False):
            t0 = time.perf_counter()
            brute_threat(m, [pairs[k]])
            per.append(time.perf_counter() - t0)
        return listing + statistics.median(per) * len(pairs), len(pairs)

    fast_t, brute_t = [], []
    for _ in range(1 if quick else 5):
        fast_t.append(median_time(fast, 1 if quick else 5, before=clear))
        slow, n = brute()
        brute_t.append(slow)
    ratio = statistics.median(b / f for b, f in zip(brute_t, fast_t))
    fast_ms, slow_ms = statistics.median(fast_t) * 1e3, statistics.median(brute_t) * 1e3
    print(f"\nthreat map: {len(THREAT_CASTERS)} casters, 20-ft burst, range {THREAT_RANGE} ft, move {THREAT_MOVE} ft, "
          f"40x40 map, 40 walls, 30 creatures")
    print(f"  threat_map {fast_ms:8.1f} ms   brute force {slow_ms:9.0f} ms (est. over {n} areas)   "
          f"ratio {ratio:5.0f}x   target >= 50x {'ok' if ratio >= 50 else 'MISSED'}")
    if not quick:
        clear()
        t0 = time.perf_counter()
        count = brute_threat(m)
        whole = time.perf_counter() - t0
        assert np.array_equal(count, fast().count), "threat_map differs from the brute force"
        print(f"  the whole brute force once: {whole * 1e3:9.0f} ms, {whole * 1e3 / fast_ms:5.0f}x; the same squares")


if __name__ == "__main__":
    main()

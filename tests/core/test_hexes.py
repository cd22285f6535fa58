"""Hex geometry (tabletop/core/hexes.py): round trips, rotation, offset grids, pixel centres."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tabletop.core import hexes

coord = st.integers(-40, 40)
axial = st.tuples(coord, coord)
offsets = st.sampled_from(hexes.OFFSETS)
orientations = st.sampled_from(hexes.ORIENTATIONS)


@given(axial, offsets, orientations)
def test_offset_and_axial_round_trip(h, offset, orientation):
    cell = hexes.axial_to_offset(h, offset, orientation)
    assert hexes.offset_to_axial(cell, offset, orientation) == h
    assert (
        hexes.axial_to_offset(hexes.offset_to_axial(h, offset, orientation), offset, orientation)
        == h
    )


@given(axial, st.integers(-20, 20))
def test_six_turns_come_back_and_turns_add_up(h, k):
    assert hexes.rotate(h, 6) == h
    assert hexes.rotate(h, k) == hexes.rotate(h, k % 6)
    assert hexes.rotate(hexes.rotate(h, k), -k) == h
    assert hexes.rotate(hexes.rotate(h, 2), 3) == hexes.rotate(h, 5)


@given(axial, axial, st.integers(0, 5), axial)
def test_turning_keeps_distances(a, b, k, about):
    assert hexes.distance(hexes.rotate(a, k, about), hexes.rotate(b, k, about)) == hexes.distance(
        a, b
    )
    assert hexes.rotate(about, k, about) == about


@given(axial, st.integers(0, 5), orientations)
def test_one_turn_is_sixty_degrees_clockwise_on_the_screen(h, k, orientation):
    x, y = hexes.centre(h, orientation)
    tx, ty = hexes.centre(hexes.rotate(h, k), orientation)
    a = math.radians(60 * k)  # y grows downwards: a positive angle turns clockwise
    assert tx == pytest.approx(x * math.cos(a) - y * math.sin(a), abs=1e-9)
    assert ty == pytest.approx(x * math.sin(a) + y * math.cos(a), abs=1e-9)


def test_the_rotation_step_is_minus_r_q_plus_r():
    assert hexes.rotate((3, -2)) == (2, 1)
    assert hexes.rotate((1, 0)) == (0, 1)
    assert [hexes.rotate((1, 0), k) for k in range(6)] == list(hexes.DIRECTIONS)


@given(axial)
def test_neighbours_are_one_step_away_and_touch_on_screen(h):
    around = hexes.neighbours(h)
    assert len(set(around)) == 6
    assert all(hexes.distance(h, n) == 1 and hexes.are_neighbours(n, h) for n in around)
    for orientation in hexes.ORIENTATIONS:
        x, y = hexes.centre(h, orientation)
        for n in around:  # centres of touching hexes are √3 apart (size 1)
            nx, ny = hexes.centre(n, orientation)
            assert math.hypot(nx - x, ny - y) == pytest.approx(math.sqrt(3))


@given(axial, offsets, orientations)
def test_offset_neighbours_are_the_axial_neighbours(h, offset, orientation):
    cell = hexes.axial_to_offset(h, offset, orientation)
    assert {
        hexes.offset_to_axial(c, offset, orientation)
        for c in hexes.offset_neighbours(cell, offset, orientation)
    } == set(hexes.neighbours(h))


@pytest.mark.parametrize(
    ("cell", "offset", "orientation", "expected"),
    [
        # even-q: q = col, r = row - (col + (col & 1)) / 2
        ((0, 0), "even", "flat", (0, 0)),
        ((1, 0), "even", "flat", (1, -1)),
        ((3, 2), "even", "flat", (3, 0)),
        ((-1, 0), "even", "flat", (-1, 0)),  # a negative odd column counts as odd
        ((-3, 1), "even", "flat", (-3, 2)),
        # odd-q: r = row - (col - (col & 1)) / 2
        ((1, 0), "odd", "flat", (1, 0)),
        ((2, 0), "odd", "flat", (2, -1)),
        ((-1, 0), "odd", "flat", (-1, 1)),
        # odd-r and even-r (pointy tops)
        ((0, 1), "odd", "pointy", (0, 1)),
        ((0, 2), "odd", "pointy", (-1, 2)),
        ((0, 1), "even", "pointy", (-1, 1)),
        ((0, -1), "even", "pointy", (0, -1)),
    ],
)
def test_offset_to_axial_by_hand(cell, offset, orientation, expected):
    assert hexes.offset_to_axial(cell, offset, orientation) == expected
    assert hexes.axial_to_offset(expected, offset, orientation) == cell


def test_even_q_columns_meet_the_rows_the_fjord_board_says():
    # an even column's neighbours in the next columns are in rows row and row+1, an odd
    # column's in rows row-1 and row (the printed fjord board's grid)
    assert set(hexes.offset_neighbours((2, 2), "even")) == {
        (2, 1),
        (2, 3),
        (1, 2),
        (1, 3),
        (3, 2),
        (3, 3),
    }
    assert set(hexes.offset_neighbours((3, 2), "even")) == {
        (3, 1),
        (3, 3),
        (2, 1),
        (2, 2),
        (4, 1),
        (4, 2),
    }


@given(
    st.lists(
        st.tuples(st.integers(-8, 8), st.integers(-8, 8)), min_size=1, max_size=25, unique=True
    ),
    axial,
    st.integers(0, 5),
)
def test_a_face_keeps_its_shape_wherever_it_is_laid(cells, origin, k):
    placed = hexes.place_face(cells, origin, k)
    assert list(placed) == cells
    assert len(set(placed.values())) == len(cells)
    for a in cells:
        for b in cells:
            da = hexes.offset_to_axial(a, "even")
            db = hexes.offset_to_axial(b, "even")
            assert hexes.distance(placed[a], placed[b]) == hexes.distance(da, db)


def test_a_face_laid_at_an_origin_and_turned():
    # cell (c, r) -> axial (c, r - (c + (c & 1)) / 2), turned k times, moved by the origin
    cells = [(0, 0), (1, 0), (2, 3)]
    assert hexes.place_face(cells, (5, -8), 0) == {
        (0, 0): (5, -8),
        (1, 0): (6, -9),
        (2, 3): (7, -6),
    }
    assert hexes.place_face(cells, (5, -8), 1) == {
        (0, 0): (5, -8),
        (1, 0): (6, -8),
        (2, 3): (3, -4),
    }
    assert hexes.place_face([(1, 0)], (0, 0), 1, offset="odd") == {(1, 0): (0, 1)}


@given(axial, orientations, st.floats(0.5, 40))
def test_the_hex_under_a_centre_is_that_hex(h, orientation, size):
    x, y = hexes.centre(h, orientation, size)
    assert hexes.nearest(x, y, orientation, size) == h
    for cx, cy in hexes.corners((x, y), orientation, size):  # just inside each corner
        assert hexes.nearest(x + (cx - x) * 0.9, y + (cy - y) * 0.9, orientation, size) == h


def test_pixel_centres_flat_and_pointy():
    assert hexes.centre((2, -1), "flat") == pytest.approx((3.0, 0.0))
    assert hexes.centre((1, 1), "flat", 10) == pytest.approx((15.0, 10 * math.sqrt(3) * 1.5))
    assert hexes.centre((1, 2), "pointy") == pytest.approx((2 * math.sqrt(3), 3.0))
    assert hexes.half_extent("flat") == pytest.approx((1.0, math.sqrt(3) / 2))
    assert hexes.half_extent("pointy", 2) == pytest.approx((math.sqrt(3), 2.0))


@pytest.mark.parametrize("text", ["3,-2", "0,0", "-12,7"])
def test_space_names_read_back(text):
    assert hexes.name(hexes.parse(text)) == text


@pytest.mark.parametrize("text", ["3", "3,-2,1", "a,b", "3, -2", "+3,2", "03,2", 3])
def test_bad_space_names_say_so(text):
    with pytest.raises(ValueError, match="q,r|written as"):
        hexes.parse(text)


def test_bad_offset_or_orientation_say_so():
    with pytest.raises(ValueError, match="offset must be"):
        hexes.offset_to_axial((0, 0), "evn")
    with pytest.raises(ValueError, match="orientation must be"):
        hexes.axial_to_offset((0, 0), "odd", "round")

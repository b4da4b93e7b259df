import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.IntConsumer;
import java.util.function.LongConsumer;
import java.util.function.LongSupplier;

/**
 * The grader's reference Board, substituted under a student's Solver (the "ref" world), with the
 * assignment's public API and nothing more public. It mirrors the Rust reference board and its
 * CountingBoard wrapper exactly:
 *
 * - tiles in one byte array, one byte per tile for n <= 15 and two (little-endian) beyond; hamming,
 *   manhattan and the blank's position cached and updated in O(1) for each neighbor;
 * - neighbors() moves the blank down, right, left, up; twin() swaps row-major positions 0 and 1 unless one
 *   is the blank, then the last two; isGoal() goes through manhattan();
 * - every public method is counted through the adapter's meter, and each board remembers its lineage (its
 *   id, its parent's, its grandparent's) so equals() can tell cheaply whether its argument is a neighbor of a
 *   neighbor, the only comparison the critical optimization needs;
 * - a board the grader builds (the puzzle handed to a Solver) is a root, and so is every board neighbors() or
 *   twin() makes from a root; a board a Solver builds from tiles is not. A root's id is negative. A root's
 *   neighbors() reports the hash of its tiles, so the adapter can count the distinct boards a search expanded
 *   (board_expanded: only the search's own boards, not boards made up to show expansions).
 *
 * The Board lives in a class loader and module of its own, apart from the student's Solver, and can name
 * nothing of the adapter's module: it counts through the meter (npuzzle.BoardMeter) it takes from the
 * system properties once, in its static initializer, seen only as JDK interfaces that add and never
 * subtract. The event numbers below are the meter's.
 */
public final class Board {
    private static final int MAX_BYTE_DIMENSION = 15;

    private static final int CONSTRUCTED = 0;
    private static final int TO_STRING = 1;
    private static final int DIMENSION = 2;
    private static final int HAMMING = 3;
    private static final int MANHATTAN = 4;
    private static final int IS_GOAL = 5;
    private static final int EQUALS = 6;
    private static final int EQUALS_NON_BOARD = 7;
    private static final int EQUALS_NOT_GRAND_NEIGHBOR = 8;
    private static final int NEIGHBORS = 9;
    private static final int TWIN = 10;

    /** Counts one event. */
    private static final IntConsumer COUNT;
    /** Hands out lineage ids. */
    private static final LongSupplier IDS;
    /** Whether the board being built from tiles is the grader's (a root). */
    private static final BooleanSupplier GRADER_BUILDS;
    /** Takes the tiles' hash of a root whose neighbors() was just counted. */
    private static final LongConsumer EXPANDED;

    static {
        Object meter = System.getProperties().remove("npuzzle.boardMeter");
        if (meter == null) throw new IllegalStateException("the reference Board was loaded without its meter");
        COUNT = (IntConsumer) meter;
        IDS = (LongSupplier) meter;
        GRADER_BUILDS = (BooleanSupplier) meter;
        EXPANDED = (LongConsumer) meter;
    }

    private final byte[] tiles;
    private final long id;
    private final long parent;
    private final long grandparent;
    private final int manhattan;
    private final int hamming;
    private final short blank;
    private final byte n;

    /** Builds a board from an n-by-n grid of tiles (2 <= n < 128, each of 0..n*n-1 once). */
    public Board(int[][] grid) {
        if (grid == null) throw new IllegalArgumentException("tiles must not be null");
        int size = grid.length;
        if (size < 2 || size > 127) throw new IllegalArgumentException("dimension " + size + " is out of range 2..127");
        int cells = size * size;
        byte[] t = new byte[size <= MAX_BYTE_DIMENSION ? cells : 2 * cells];
        boolean[] seen = new boolean[cells];
        int b = -1;
        int h = 0;
        int m = 0;
        for (int row = 0; row < size; row++) {
            if (grid[row] == null || grid[row].length != size) {
                throw new IllegalArgumentException("row " + row + " does not have " + size + " tiles");
            }
            for (int col = 0; col < size; col++) {
                int tile = grid[row][col];
                if (tile < 0 || tile >= cells || seen[tile]) {
                    throw new IllegalArgumentException("tiles must be a permutation of 0.." + (cells - 1));
                }
                seen[tile] = true;
                int i = row * size + col;
                put(t, size, i, tile);
                if (tile == 0) {
                    b = i;
                } else {
                    if (tile != i + 1) h++;
                    m += distance(size, tile, i);
                }
            }
        }
        this.tiles = t;
        this.n = (byte) size;
        this.blank = (short) b;
        this.hamming = h;
        this.manhattan = m;
        this.id = freshId(GRADER_BUILDS.getAsBoolean());
        this.parent = 0;
        this.grandparent = 0;
        COUNT.accept(CONSTRUCTED);
    }

    /** A board derived from another, a root if that one is (uncounted here: the callers count). */
    private Board(byte[] tiles, int n, int blank, int hamming, int manhattan, long parent, long grandparent,
                  boolean root) {
        this.tiles = tiles;
        this.n = (byte) n;
        this.blank = (short) blank;
        this.hamming = hamming;
        this.manhattan = manhattan;
        this.id = freshId(root);
        this.parent = parent;
        this.grandparent = grandparent;
    }

    /** A new lineage id: negative for a root. */
    private static long freshId(boolean root) {
        long id = IDS.getAsLong();
        return root ? -id : id;
    }

    public String toString() {
        COUNT.accept(TO_STRING);
        int size = n;
        StringBuilder s = new StringBuilder(4 + size * (size * 4 + 1));
        s.append(size).append('\n');
        for (int row = 0; row < size; row++) {
            for (int col = 0; col < size; col++) {
                int tile = get(row * size + col);
                if (tile < 10) s.append(' ');
                s.append(tile).append(' ');
            }
            s.append('\n');
        }
        return s.toString();
    }

    public int dimension() {
        COUNT.accept(DIMENSION);
        return n;
    }

    public int hamming() {
        COUNT.accept(HAMMING);
        return hamming;
    }

    public int manhattan() {
        COUNT.accept(MANHATTAN);
        return manhattan;
    }

    /** Goes through manhattan(), as the official reference does: counted as one isGoal and one manhattan. */
    public boolean isGoal() {
        COUNT.accept(IS_GOAL);
        return manhattan() == 0;
    }

    public boolean equals(Object other) {
        COUNT.accept(EQUALS);
        // A null argument (a root node's missing predecessor) is allowed, as officially (Solver 10b).
        if (other == null) return false;
        if (!(other instanceof Board)) {
            COUNT.accept(EQUALS_NON_BOARD);
            return false;
        }
        Board that = (Board) other;
        if (!isNeighborOfNeighbor(that)) COUNT.accept(EQUALS_NOT_GRAND_NEIGHBOR);
        return sameTiles(that);
    }

    /** Consistent with equals; not part of the assignment's API and not counted. */
    public int hashCode() {
        return 31 * Arrays.hashCode(tiles) + n;
    }

    public Iterable<Board> neighbors() {
        List<Board> out = slides(id, parent, id < 0);
        COUNT.accept(NEIGHBORS);
        if (id < 0) EXPANDED.accept(tilesHash());
        for (int i = 0; i < out.size(); i++) COUNT.accept(CONSTRUCTED);
        return out;
    }

    public Board twin() {
        COUNT.accept(TWIN);
        COUNT.accept(CONSTRUCTED);
        int cells = n * n;
        int a = 0;
        int b = 1;
        if (get(0) == 0 || get(1) == 0) {
            a = cells - 2;
            b = cells - 1;
        }
        int ta = get(a);
        int tb = get(b);
        byte[] t = tiles.clone();
        put(t, n, a, tb);
        put(t, n, b, ta);
        int m = manhattan - distance(n, ta, a) - distance(n, tb, b) + distance(n, tb, a) + distance(n, ta, b);
        int h = hamming - (ta != a + 1 ? 1 : 0) - (tb != b + 1 ? 1 : 0) + (tb != a + 1 ? 1 : 0) + (ta != b + 1 ? 1 : 0);
        return new Board(t, n, blank, h, m, 0, 0, id < 0);
    }

    // ---- internals (private: a student's Solver compiled against this Board sees only the API) ----

    /** The boards one slide away, blank moving down, right, left, up, roots if `root`; uncounted. */
    private List<Board> slides(long parentId, long grandparentId, boolean root) {
        int size = n;
        int row = blank / size;
        int col = blank % size;
        List<Board> out = new ArrayList<>(4);
        if (row + 1 < size) out.add(slide(blank + size, parentId, grandparentId, root));
        if (col + 1 < size) out.add(slide(blank + 1, parentId, grandparentId, root));
        if (col > 0) out.add(slide(blank - 1, parentId, grandparentId, root));
        if (row > 0) out.add(slide(blank - size, parentId, grandparentId, root));
        return out;
    }

    private Board slide(int to, long parentId, long grandparentId, boolean root) {
        int from = blank;
        int tile = get(to);
        byte[] t = tiles.clone();
        put(t, n, from, tile);
        put(t, n, to, 0);
        int m = manhattan - distance(n, tile, to) + distance(n, tile, from);
        int h = hamming - (tile != to + 1 ? 1 : 0) + (tile != from + 1 ? 1 : 0);
        return new Board(t, n, to, h, m, parentId, grandparentId, root);
    }

    private boolean sameTiles(Board that) {
        return n == that.n && Arrays.equals(tiles, that.tiles);
    }

    /** Whether that board is this one, or two slides away (by lineage, else by content). */
    private boolean isNeighborOfNeighbor(Board that) {
        if (that.id == grandparent || id == that.grandparent || id == that.id) return true;
        if (n != that.n) return false;
        // two slides change at most three positions: skip the exact check when more differ
        int differing = 0;
        for (int i = 0; i < tiles.length && differing <= 6; i++) {
            if (tiles[i] != that.tiles[i]) differing++;
        }
        if (differing == 0) return true;
        if (differing > 6) return false;
        for (Board child : slides(0, 0, false)) {
            for (Board grandchild : child.slides(0, 0, false)) {
                if (grandchild.sameTiles(that)) return true;
            }
        }
        return false;
    }

    /** A hash of the size and tiles (FNV-1a, then mixed), as the Rust reference's counting board computes it. */
    private long tilesHash() {
        long h = 0xCBF29CE484222325L ^ n;
        for (int i = 0, cells = n * n; i < cells; i++) h = (h ^ get(i)) * 0x100000001B3L;
        h ^= h >>> 33;
        h *= 0xFF51AFD7ED558CCDL;
        return h ^ (h >>> 33);
    }

    private int get(int i) {
        if (n <= MAX_BYTE_DIMENSION) return tiles[i] & 0xff;
        return (tiles[2 * i] & 0xff) | ((tiles[2 * i + 1] & 0xff) << 8);
    }

    private static void put(byte[] t, int size, int i, int tile) {
        if (size <= MAX_BYTE_DIMENSION) {
            t[i] = (byte) tile;
        } else {
            t[2 * i] = (byte) tile;
            t[2 * i + 1] = (byte) (tile >>> 8);
        }
    }

    /** Manhattan distance of a (non-blank) tile at index at from its goal index. */
    private static int distance(int size, int tile, int at) {
        int goal = tile - 1;
        return Math.abs(at / size - goal / size) + Math.abs(at % size - goal % size);
    }
}

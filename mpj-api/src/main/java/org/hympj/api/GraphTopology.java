package org.hympj.api;

/** Pure checks of a graph description (MPI_Graph_create's index and edges), shared by every provider. */
public final class GraphTopology {
    private GraphTopology() {
    }

    /**
     * Checks a graph of {@code index.length} nodes for a communicator of {@code size} ranks:
     * {@code index} non-decreasing from a value >= 0, {@code edges} exactly {@code index[n-1]}
     * long, every edge a node 0 … n-1, and n <= size.
     *
     * @throws IllegalArgumentException naming {@code op} and the argument at fault
     */
    public static void check(String op, int[] index, int[] edges, int size) {
        if (index == null) {
            throw new IllegalArgumentException(op + ": index must not be null");
        }
        if (edges == null) {
            throw new IllegalArgumentException(op + ": edges must not be null");
        }
        int n = index.length;
        if (n > size) {
            throw new IllegalArgumentException(op + ": index describes " + n + " nodes (nnodes), the communicator has "
                + size + " ranks");
        }
        int previous = 0;
        for (int i = 0; i < n; i++) {
            if (index[i] < previous) {
                throw new IllegalArgumentException(op + ": index must be non-decreasing from a value >= 0, index[" + i
                    + "] = " + index[i] + (i == 0 ? "" : " < index[" + (i - 1) + "] = " + previous));
            }
            previous = index[i];
        }
        int total = n == 0 ? 0 : index[n - 1];
        if (edges.length != total) {
            throw new IllegalArgumentException(op + ": edges must have index[nnodes-1] = " + total
                + " entries, has " + edges.length);
        }
        for (int k = 0; k < edges.length; k++) {
            if (edges[k] < 0 || edges[k] >= n) {
                throw new IllegalArgumentException(op + ": edges[" + k + "] must be a node 0.." + (n - 1) + ", was "
                    + edges[k]);
            }
        }
    }

    /** First edge of {@code node}'s neighbours in {@code edges}. */
    public static int first(int[] index, int node) {
        return node == 0 ? 0 : index[node - 1];
    }
}

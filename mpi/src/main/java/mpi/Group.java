package mpi;

import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * An ordered set of processes (mpiJava 1.2), held as their ranks in {@code MPI.COMM_WORLD}.
 * Local: making a group communicates with nobody.
 */
public class Group {
    /** World ranks, in group order. */
    final int[] members;

    Group(int[] members) {
        this.members = members;
    }

    /** Number of processes. */
    public int Size() {
        return members.length;
    }

    /** This process's rank in the group, or {@link MPI#UNDEFINED}. */
    public int Rank() {
        return indexOf(MPI.worldRank());
    }

    int indexOf(int worldRank) {
        for (int i = 0; i < members.length; i++) {
            if (members[i] == worldRank) {
                return i;
            }
        }
        return MPI.UNDEFINED;
    }

    /** Nothing to release. */
    public void Free() {
    }

    /** The processes at {@code ranks} of this group, in that order. */
    public Group Incl(int[] ranks) {
        checkRanks("Incl", ranks, true);
        int[] m = new int[ranks.length];
        for (int i = 0; i < ranks.length; i++) {
            m[i] = members[ranks[i]];
        }
        return new Group(m);
    }

    /** This group without the processes at {@code ranks}, order kept. */
    public Group Excl(int[] ranks) {
        checkRanks("Excl", ranks, true);
        boolean[] drop = new boolean[members.length];
        for (int r : ranks) {
            drop[r] = true;
        }
        int[] m = new int[members.length];
        int n = 0;
        for (int i = 0; i < members.length; i++) {
            if (!drop[i]) {
                m[n++] = members[i];
            }
        }
        return new Group(Arrays.copyOf(m, n));
    }

    /** The ranks of triplets {first, last, stride}, in order (MPI_Group_range_incl). */
    public Group Range_incl(int[][] ranges) {
        return Incl(expand("Range_incl", ranges));
    }

    /** This group without the ranks of triplets {first, last, stride}. */
    public Group Range_excl(int[][] ranges) {
        return Excl(expand("Range_excl", ranges));
    }

    private int[] expand(String call, int[][] ranges) {
        if (ranges == null) {
            throw new MPIException(call + ": ranges must not be null");
        }
        int[] out = new int[0];
        for (int k = 0; k < ranges.length; k++) {
            int[] t = ranges[k];
            if (t == null || t.length != 3) {
                throw new MPIException(call + ": ranges[" + k + "] must be a triplet {first, last, stride}");
            }
            int first = t[0];
            int last = t[1];
            int stride = t[2];
            if (stride == 0) {
                throw new MPIException(call + ": ranges[" + k + "] has stride 0");
            }
            if ((stride > 0 && first > last) || (stride < 0 && first < last)) {
                throw new MPIException(call + ": ranges[" + k + "] = {" + first + ", " + last + ", " + stride
                    + "} is empty the wrong way round");
            }
            for (int r = first; stride > 0 ? r <= last : r >= last; r += stride) {
                out = Arrays.copyOf(out, out.length + 1);
                out[out.length - 1] = r;
            }
        }
        return out;
    }

    private void checkRanks(String call, int[] ranks, boolean distinct) {
        if (ranks == null) {
            throw new MPIException(call + ": ranks must not be null");
        }
        boolean[] seen = new boolean[members.length];
        for (int i = 0; i < ranks.length; i++) {
            int r = ranks[i];
            if (r < 0 || r >= members.length) {
                throw new MPIException(call + ": ranks[" + i + "] must be 0.." + (members.length - 1) + ", was " + r);
            }
            if (distinct && seen[r]) {
                throw new MPIException(call + ": rank " + r + " appears twice");
            }
            seen[r] = true;
        }
    }

    /** The ranks in {@code group2} of the processes at {@code ranks1} of {@code group1} ({@link MPI#UNDEFINED} if absent). */
    public static int[] Translate_ranks(Group group1, int[] ranks1, Group group2) {
        if (group1 == null || group2 == null || ranks1 == null) {
            throw new MPIException("Translate_ranks: group1, ranks1 and group2 must not be null");
        }
        int[] out = new int[ranks1.length];
        for (int i = 0; i < ranks1.length; i++) {
            int r = ranks1[i];
            if (r == MPI.PROC_NULL) {
                out[i] = MPI.PROC_NULL;
                continue;
            }
            if (r < 0 || r >= group1.members.length) {
                throw new MPIException("Translate_ranks: ranks1[" + i + "] must be 0.." + (group1.members.length - 1)
                    + ", was " + r);
            }
            out[i] = group2.indexOf(group1.members[r]);
        }
        return out;
    }

    /** {@link MPI#IDENT} (same members, same order), {@link MPI#SIMILAR} (same members) or {@link MPI#UNEQUAL}. */
    public static int Compare(Group group1, Group group2) {
        if (group1 == null || group2 == null) {
            throw new MPIException("Compare: groups must not be null");
        }
        if (Arrays.equals(group1.members, group2.members)) {
            return MPI.IDENT;
        }
        int[] a = group1.members.clone();
        int[] b = group2.members.clone();
        Arrays.sort(a);
        Arrays.sort(b);
        return Arrays.equals(a, b) ? MPI.SIMILAR : MPI.UNEQUAL;
    }

    /** The members of {@code group1}, then those of {@code group2} not in it. */
    public static Group Union(Group group1, Group group2) {
        Set<Integer> s = set("Union", group1, group2);
        for (int r : group2.members) {
            s.add(r);
        }
        return of(s);
    }

    /** The members of {@code group1} that are in {@code group2}, in group1's order. */
    public static Group Intersection(Group group1, Group group2) {
        Set<Integer> s = new LinkedHashSet<>();
        set("Intersection", group1, group2);
        for (int r : group1.members) {
            if (group2.indexOf(r) != MPI.UNDEFINED) {
                s.add(r);
            }
        }
        return of(s);
    }

    /** The members of {@code group1} not in {@code group2}, in group1's order. */
    public static Group Difference(Group group1, Group group2) {
        Set<Integer> s = new LinkedHashSet<>();
        set("Difference", group1, group2);
        for (int r : group1.members) {
            if (group2.indexOf(r) == MPI.UNDEFINED) {
                s.add(r);
            }
        }
        return of(s);
    }

    private static Set<Integer> set(String call, Group group1, Group group2) {
        if (group1 == null || group2 == null) {
            throw new MPIException(call + ": groups must not be null");
        }
        Set<Integer> s = new LinkedHashSet<>();
        for (int r : group1.members) {
            s.add(r);
        }
        return s;
    }

    private static Group of(Set<Integer> s) {
        int[] m = new int[s.size()];
        int i = 0;
        for (int r : s) {
            m[i++] = r;
        }
        return new Group(m);
    }

    @Override
    public String toString() {
        return "Group" + Arrays.toString(members);
    }
}

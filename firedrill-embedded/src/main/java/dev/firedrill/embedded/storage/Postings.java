package dev.firedrill.embedded.storage;

import java.util.Arrays;

/**
 * The ids of the series that carry one label value, ascending (ids are handed out in increasing
 * order), so two lists intersect in one merge pass. The value is kept as the one shared instance
 * every series with it refers to.
 */
final class Postings {

  final String value;
  private int[] ids = new int[4];
  private int size;

  Postings(String value) {
    this.value = value;
  }

  void add(int id) {
    if (size == ids.length) {
      ids = Arrays.copyOf(ids, size * 2);
    }
    ids[size++] = id;
  }

  int size() {
    return size;
  }

  int[] toArray() {
    return Arrays.copyOf(ids, size);
  }

  /** The ids of {@code candidates} (ascending) that are in this list too. */
  int[] retain(int[] candidates) {
    return intersect(candidates, candidates.length, ids, size);
  }

  /**
   * The ids in both ascending lists: a merge when their sizes are alike, else a binary search of
   * the longer for each id of the shorter, so a handful of candidates costs little against a metric
   * name that 10,000 series share.
   */
  static int[] intersect(int[] a, int aSize, int[] b, int bSize) {
    if (aSize > bSize) {
      return intersect(b, bSize, a, aSize);
    }
    int[] out = new int[aSize];
    int n = 0;
    if ((long) aSize * 16 < bSize) {
      int from = 0;
      for (int i = 0; i < aSize; i++) {
        int at = Arrays.binarySearch(b, from, bSize, a[i]);
        if (at >= 0) {
          out[n++] = a[i];
          from = at + 1;
        } else {
          from = -at - 1;
        }
      }
      return Arrays.copyOf(out, n);
    }
    int i = 0;
    int j = 0;
    while (i < aSize && j < bSize) {
      if (a[i] < b[j]) {
        i++;
      } else if (a[i] > b[j]) {
        j++;
      } else {
        out[n++] = a[i];
        i++;
        j++;
      }
    }
    return Arrays.copyOf(out, n);
  }

  /** Appends the ids to {@code into} at {@code at}; returns the position after them. */
  int copyInto(int[] into, int at) {
    System.arraycopy(ids, 0, into, at, size);
    return at + size;
  }
}

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

  /** The ids in both this list and the ascending {@code others}. */
  int[] intersect(int[] others) {
    int[] out = new int[Math.min(size, others.length)];
    int n = 0;
    int i = 0;
    int j = 0;
    while (i < size && j < others.length) {
      if (ids[i] < others[j]) {
        i++;
      } else if (ids[i] > others[j]) {
        j++;
      } else {
        out[n++] = ids[i];
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

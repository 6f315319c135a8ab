package dev.firedrill.network.nft;

import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** An IPv4 address or network ({@code 10.0.0.2}, {@code 10.0.0.0/24}), as an nft set element. */
record Ipv4Prefix(long address, int length) {

  private static final Pattern TEXT =
      Pattern.compile("(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})(?:/(\\d{1,2}))?");

  static final String EXPECTED =
      "expected an IPv4 address or network, such as 10.0.0.2 or 10.0.0.0/24";

  /** The prefix, or empty when {@code text} is not one (with host bits set, say). */
  static Optional<Ipv4Prefix> parse(String text) {
    Matcher m = TEXT.matcher(text.strip());
    if (!m.matches()) {
      return Optional.empty();
    }
    long address = 0;
    for (int i = 1; i <= 4; i++) {
      int octet = Integer.parseInt(m.group(i));
      if (octet > 255) {
        return Optional.empty();
      }
      address = (address << 8) | octet;
    }
    int length = m.group(5) == null ? 32 : Integer.parseInt(m.group(5));
    if (length > 32 || (address & ~mask(length)) != 0) {
      return Optional.empty();
    }
    return Optional.of(new Ipv4Prefix(address, length));
  }

  private static long mask(int length) {
    return length == 0 ? 0 : (0xFFFFFFFFL << (32 - length)) & 0xFFFFFFFFL;
  }

  boolean overlaps(Ipv4Prefix other) {
    long common = mask(Math.min(length, other.length));
    return (address & common) == (other.address & common);
  }

  /** The first of {@code prefixes} overlapping an earlier one (nft refuses such a set). */
  static Optional<Ipv4Prefix> firstOverlap(List<Ipv4Prefix> prefixes) {
    for (int i = 0; i < prefixes.size(); i++) {
      for (int j = 0; j < i; j++) {
        if (prefixes.get(i).overlaps(prefixes.get(j))) {
          return Optional.of(prefixes.get(i));
        }
      }
    }
    return Optional.empty();
  }

  String text() {
    String dotted =
        ((address >> 24) & 255)
            + "."
            + ((address >> 16) & 255)
            + "."
            + ((address >> 8) & 255)
            + "."
            + (address & 255);
    return length == 32 ? dotted : dotted + "/" + length;
  }
}

package dev.firedrill.testing.hostile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The seeded runner: a failure names the seed that reproduces its input. */
class PropertiesTest {

  private static final Pattern SEED = Pattern.compile("seed (-?\\d+) ");
  private static final Pattern INPUT = Pattern.compile("input (.*): no ");

  /** Strings of 1 to 30 letters a-e: some (not all) hold "ee". */
  private static final Generator<String> WORDS =
      random -> {
        StringBuilder out = new StringBuilder();
        int length = 1 + random.nextInt(30);
        for (int i = 0; i < length; i++) {
          out.append((char) ('a' + random.nextInt(5)));
        }
        return out.toString();
      };

  private static void noDoubleE(String word) {
    if (word.contains("ee")) {
      throw new IllegalStateException("no ee in " + word);
    }
  }

  @Test
  void aFailureNamesTheSeedThatReproducesItsInput() {
    AssertionError failure = failureOf(1_000, 42L);
    Matcher seed = SEED.matcher(failure.getMessage());
    Matcher input = INPUT.matcher(failure.getMessage());
    assertThat(seed.find()).as(failure.getMessage()).isTrue();
    assertThat(input.find()).as(failure.getMessage()).isTrue();
    long failingSeed = Long.parseLong(seed.group(1));
    String word = WORDS.next(new Random(failingSeed));

    assertThat(word).isEqualTo(input.group(1)).contains("ee");
    assertThat(failure.getMessage()).contains("-Dhostile.seed=" + failingSeed);
    assertThat(failure.getCause()).hasMessage("no ee in " + word);
    // Rerun from the failure's seed: its input is the first try, and fails the same way.
    AssertionError again = failureOf(1, failingSeed);
    assertThat(again.getMessage())
        .isEqualTo(failure.getMessage().replaceFirst("try \\d+ of 1000", "try 1 of 1"));
  }

  @Test
  void eachTryDrawsFromTheNextSeed() {
    List<String> seen = new ArrayList<>();
    Properties.forEach("words", 5, 7L, WORDS, seen::add);
    List<String> expected = new ArrayList<>();
    for (long s = 7; s < 12; s++) {
      expected.add(WORDS.next(new Random(s)));
    }
    assertThat(seen).isEqualTo(expected);
  }

  @Test
  void aPassingPropertyChecksEveryTry() {
    int[] count = {0};
    Properties.forEach("words", 2_000, 1L, WORDS, w -> count[0]++);
    assertThat(count[0]).isEqualTo(2_000);
  }

  @Test
  void theInputIsQuotedAndCut() {
    AssertionError failure =
        assertThrows(
            () ->
                Properties.forEach(
                    "escapes",
                    1,
                    3L,
                    random -> "\u001b[2J" + "x".repeat(1_000),
                    s -> {
                      throw new IllegalStateException("no");
                    }));
    assertThat(failure.getMessage())
        .contains("input \\x1b[2J" + "x".repeat(Properties.EXCERPT - 4) + "... (1004 chars)")
        .doesNotContain("\u001b");
  }

  @Test
  void theSeedPropertyOverridesTheTestsSeed() {
    assertThat(Properties.seed(5L, null)).isEqualTo(5L);
    assertThat(Properties.seed(5L, " ")).isEqualTo(5L);
    assertThat(Properties.seed(5L, "-123")).isEqualTo(-123L);
    assertThatThrownBy(() -> Properties.seed(5L, "x\n"))
        .hasMessage("-Dhostile.seed must be a whole number: x\\n");
  }

  @Test
  void triesAreBounded() {
    assertThatThrownBy(() -> Properties.forEach("w", Properties.MAX_TRIES + 1, 1L, WORDS, w -> {}))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Properties.forEach("w", 0, 1L, WORDS, w -> {}))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void frequencyDrawsByWeight() {
    Generator<String> g =
        Generator.frequency(
            List.of(
                Generator.weighted(9, Generator.constant("a")),
                Generator.weighted(1, Generator.constant("b"))));
    Random random = new Random(1);
    int a = 0;
    for (int i = 0; i < 10_000; i++) {
      a += g.next(random).equals("a") ? 1 : 0;
    }
    assertThat(a).isBetween(8_700, 9_300);
  }

  private static AssertionError failureOf(int tries, long seed) {
    return assertThrows(
        () -> Properties.forEach("no ee", tries, seed, WORDS, PropertiesTest::noDoubleE));
  }

  private static AssertionError assertThrows(Runnable run) {
    return org.junit.jupiter.api.Assertions.assertThrows(AssertionError.class, run::run);
  }
}

package dev.firedrill.kubernetes.select;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SelectionTest {

  @Test
  void percentSelectionsRoundUpAsChaosMeshDoes() {
    assertThat(new Selection(SelectionMode.FIXED_PERCENT, 34).worstCase(3)).isEqualTo(2);
    assertThat(new Selection(SelectionMode.FIXED_PERCENT, 1).worstCase(3)).isEqualTo(1);
    assertThat(new Selection(SelectionMode.FIXED_PERCENT, 50).worstCase(4)).isEqualTo(2);
    assertThat(new Selection(SelectionMode.FIXED_PERCENT, 100).worstCase(7)).isEqualTo(7);
    assertThat(new Selection(SelectionMode.RANDOM_MAX_PERCENT, 34).worstCase(3)).isEqualTo(2);
  }

  @Test
  void countModesNeverExceedTheMatchingPods() {
    assertThat(new Selection(SelectionMode.ONE, 0).worstCase(0)).isZero();
    assertThat(new Selection(SelectionMode.ONE, 0).worstCase(5)).isEqualTo(1);
    assertThat(new Selection(SelectionMode.ALL, 0).worstCase(5)).isEqualTo(5);
    assertThat(new Selection(SelectionMode.FIXED, 4).worstCase(3)).isEqualTo(3);
  }

  @Test
  void randomMaxPercentDrawsFromZeroToTheValueIncluded() {
    Chooser chooser = new Chooser(7);
    Set<Integer> drawn = new HashSet<>();
    for (int i = 0; i < 500; i++) {
      drawn.add(chooser.percentage(3));
    }
    assertThat(drawn).containsExactlyInAnyOrder(0, 1, 2, 3);
    Selection selection = new Selection(SelectionMode.RANDOM_MAX_PERCENT, 50);
    Set<Integer> sizes = new HashSet<>();
    Chooser sizing = new Chooser(11);
    for (int i = 0; i < 500; i++) {
      sizes.add(selection.size(4, sizing));
    }
    assertThat(sizes).containsExactlyInAnyOrder(0, 1, 2);
  }

  @Test
  void theSameSeedChoosesTheSamePodsWhateverTheListOrder() {
    List<String> pods = List.of("web-a", "web-b", "web-c", "web-d", "web-e");
    List<String> first = new Chooser(42).pick(pods, 2, p -> p);
    List<String> reversed =
        new Chooser(42).pick(List.of("web-e", "web-d", "web-c", "web-b", "web-a"), 2, p -> p);
    assertThat(first).hasSize(2).isEqualTo(reversed).isSorted();
    Set<List<String>> seen = new HashSet<>();
    for (long seed = 0; seed < 50; seed++) {
      seen.add(new Chooser(seed).pick(pods, 2, p -> p));
    }
    assertThat(seen).hasSizeGreaterThan(5);
  }

  @Test
  void valuesOutsideTheirRangeAreRefused() {
    assertThatThrownBy(() -> new Selection(SelectionMode.FIXED_PERCENT, 101))
        .hasMessage("mode fixed-percent needs a percentage from 1 to 100, got 101");
    assertThatThrownBy(() -> new Selection(SelectionMode.FIXED, 0))
        .hasMessage("mode fixed needs a value of at least 1");
    assertThat(new Selection(SelectionMode.FIXED_PERCENT, 34).text())
        .isEqualTo("fixed-percent 34%");
    assertThat(SelectionMode.of("random-max-percent")).isEqualTo(SelectionMode.RANDOM_MAX_PERCENT);
  }
}

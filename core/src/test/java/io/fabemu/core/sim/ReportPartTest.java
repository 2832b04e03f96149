package io.fabemu.core.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The checks every holder of report parts shares: one part per class, looked up by class. */
class ReportPartTest {

  private record Counter(long count) implements ReportPart {
    @Override
    public long wireBytesEstimate() {
      return 8L;
    }
  }

  private record Lines(int count) implements ReportPart {
    @Override
    public long wireBytesEstimate() {
      return 64L * count;
    }
  }

  @Test
  void shouldCopyPartsOfDistinctClassesAndTakeNullForNone() {
    List<ReportPart> parts = new ArrayList<>(List.of(new Counter(1), new Lines(2)));

    List<ReportPart> copy = ReportPart.distinct(parts, "holder has");
    parts.clear();

    assertThat(copy).containsExactly(new Counter(1), new Lines(2));
    assertThat(ReportPart.distinct(null, "holder has")).isEmpty();
  }

  @Test
  void shouldRefuseTwoPartsOfOneClassNamingTheHolder() {
    assertThatThrownBy(() -> ReportPart.distinct(List.of(new Lines(1), new Counter(1), new Lines(3)), "switch 4 has"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("switch 4 has two parts of class " + Lines.class.getName());
  }

  @Test
  void shouldFindThePartOfAClassAndNullWhenThereIsNone() {
    List<ReportPart> parts = List.of(new Counter(5));

    assertThat(ReportPart.find(parts, Counter.class)).isEqualTo(new Counter(5));
    assertThat(ReportPart.find(parts, Lines.class)).isNull();
  }
}

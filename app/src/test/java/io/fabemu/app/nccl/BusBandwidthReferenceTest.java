package io.fabemu.app.nccl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabemu.app.BadInputException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Reading a published bus-bandwidth curve: the repository's own, and every way a file can be wrong. */
class BusBandwidthReferenceTest {

  @TempDir
  Path dir;

  @Test
  void shouldReadTheRepositorysH100TableWithItsSource() {
    BusBandwidthReference reference =
        BusBandwidthReference.read(Path.of("../reference/nccl-allreduce-h100x8-azure.csv"));

    assertThat(reference.source()).startsWith("Source: Azure/AI-benchmarking-guide");
    assertThat(reference.points()).hasSize(24);
    assertThat(reference.points().get(0)).isEqualTo(new BusBandwidthReference.Point(1024, 0.07));
    assertThat(reference.points().get(23)).isEqualTo(new BusBandwidthReference.Point(8_589_934_592L, 478.87));
    assertThat(reference.name()).isEqualTo("nccl-allreduce-h100x8-azure.csv");
  }

  @Test
  void shouldSkipBlankLinesAndCommentsAnywhere() throws Exception {
    Path file = write("\n# a source\n# more\n\nsize_bytes,busbw_GBps\n8, 1.5\n# between\n\n16,0\n");

    BusBandwidthReference reference = BusBandwidthReference.read(file);

    assertThat(reference.source()).isEqualTo("a source");
    assertThat(reference.points()).containsExactly(new BusBandwidthReference.Point(8, 1.5),
        new BusBandwidthReference.Point(16, 0));
  }

  @Test
  void shouldReadAFileThatStartsWithAByteOrderMark() throws Exception {
    Path file = write("\uFEFFsize_bytes,busbw_GBps\n8,1\n");

    assertThat(BusBandwidthReference.read(file).points()).containsExactly(new BusBandwidthReference.Point(8, 1));
  }

  static Stream<Arguments> badFiles() {
    return Stream.of(
        Arguments.of("8,1\n", ":1: expected the header 'size_bytes,busbw_GBps', found '8,1'"),
        Arguments.of("# only a comment\n", ": no header 'size_bytes,busbw_GBps'"),
        Arguments.of("size_bytes,busbw_GBps\n", ": no rows after the header"),
        Arguments.of("size_bytes,busbw_GBps\n8,1,2\n", ":2: expected 2 fields (size_bytes,busbw_GBps), found 3"),
        Arguments.of("size_bytes,busbw_GBps\n8K,1\n", ":2: size_bytes '8K' is not a whole number"),
        Arguments.of("size_bytes,busbw_GBps\n0,1\n", ":2: size_bytes 0 must be at least 1"),
        Arguments.of("size_bytes,busbw_GBps\n8,fast\n", ":2: busbw_GBps 'fast' is not a number"),
        Arguments.of("size_bytes,busbw_GBps\n8,-1\n", ":2: busbw_GBps -1 must be a finite number, not negative"),
        Arguments.of("size_bytes,busbw_GBps\n8,NaN\n", ":2: busbw_GBps NaN must be a finite number, not negative"),
        Arguments.of("size_bytes,busbw_GBps\n16,1\n\n8,2\n", ":4: size 8 does not follow 16: sizes must increase"),
        Arguments.of("size_bytes,busbw_GBps\n8,1\n8,2\n", ":3: size 8 does not follow 8: sizes must increase"));
  }

  @ParameterizedTest
  @MethodSource("badFiles")
  void shouldRefuseABadFileOnOneLineNamingFileAndLine(String text, String message) throws Exception {
    Path file = write(text);

    assertThatThrownBy(() -> BusBandwidthReference.read(file)).isInstanceOf(BadInputException.class)
        .hasMessage("--reference " + file + message);
  }

  @Test
  void shouldRefuseAMissingFileAFolderAndBytesThatAreNotText() throws Exception {
    Path missing = dir.resolve("missing.csv");
    Path binary = dir.resolve("binary.csv");
    Files.write(binary, new byte[] {(byte) 0xff, (byte) 0xfe, 0, 1});

    assertThatThrownBy(() -> BusBandwidthReference.read(missing)).hasMessage("--reference " + missing
        + ": no such file");
    assertThatThrownBy(() -> BusBandwidthReference.read(dir)).hasMessage("--reference " + dir + ": not a file");
    assertThatThrownBy(() -> BusBandwidthReference.read(binary)).hasMessage("--reference " + binary
        + ": not UTF-8 text");
  }

  @Test
  void shouldRefuseAFileLargerThanTheBoundAndMoreRowsThanTheBound() throws Exception {
    Path large = dir.resolve("large.csv");
    Files.write(large, new byte[(int) BusBandwidthReference.MAX_FILE_BYTES + 1]);
    StringBuilder many = new StringBuilder("size_bytes,busbw_GBps\n");
    for (int i = 1; i <= BusBandwidthReference.MAX_ROWS + 1; i++) many.append(i).append(",1\n");
    Path rows = write(many.toString());

    assertThatThrownBy(() -> BusBandwidthReference.read(large)).hasMessage("--reference " + large
        + ": larger than " + BusBandwidthReference.MAX_FILE_BYTES + " bytes");
    assertThatThrownBy(() -> BusBandwidthReference.read(rows)).hasMessage("--reference " + rows + ":"
        + (BusBandwidthReference.MAX_ROWS + 2) + ": more than " + BusBandwidthReference.MAX_ROWS + " rows");
  }

  @Test
  void shouldRefuseAnEmptyCurveBuiltInCode() {
    assertThatThrownBy(() -> new BusBandwidthReference(dir, "", List.of()))
        .isInstanceOf(IllegalArgumentException.class);
  }

  private Path write(String text) throws Exception {
    Path file = dir.resolve("curve.csv");
    Files.writeString(file, text);
    return file;
  }
}

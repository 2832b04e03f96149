package io.fabemu.app.nccl;

import io.fabemu.app.BadInputException;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A published bus-bandwidth curve to hold an emulated nccl-tests run against ({@code --reference FILE.csv}): one row
 * per nccl-tests size, as {@code reference/nccl-allreduce-h100x8-azure.csv} has it.
 *
 * <p>The file: lines starting with {@code #} say where the figures come from (the first is shown as the source);
 * blank lines are skipped; then the header {@code size_bytes,busbw_GBps} and one row per size, sizes in bytes as
 * nccl-tests prints them (a whole number, strictly increasing), bus bandwidth in GB/s (10^9 bytes per second, as
 * nccl-tests' {@code busbw}; finite, not negative).
 *
 * <p>Contract: {@link #read} checks the whole file before anything runs and refuses it with a
 * {@link BadInputException} whose one line names the file, the line and what is wrong; it reads at most
 * {@value #MAX_FILE_BYTES} bytes and {@value #MAX_ROWS} rows, so a wrong file cannot exhaust the heap.
 *
 * @param file   where it was read from, as given
 * @param source the first comment line without its {@code #} (empty when the file has none)
 * @param points the rows in increasing size
 */
public record BusBandwidthReference(Path file, String source, List<Point> points) {

  /** The header the file must have. */
  public static final String HEADER = "size_bytes,busbw_GBps";
  /** The largest file read: a reference curve is a few dozen rows. */
  public static final long MAX_FILE_BYTES = 1L << 20;
  /** The most rows: more sizes than nccl-tests runs in one sweep ({@link NcclPerfCommand#MAX_SIZES}). */
  public static final int MAX_ROWS = NcclPerfCommand.MAX_SIZES;

  /** One published figure: the bus bandwidth at one nccl-tests size. */
  public record Point(long sizeBytes, double busBwGBps) {}

  public BusBandwidthReference {
    points = List.copyOf(points);
    if (points.isEmpty()) throw new IllegalArgumentException("a reference curve needs at least one point");
  }

  /** The file's name, as a label. */
  public String name() {
    Path name = file.getFileName();
    return name == null ? file.toString() : name.toString();
  }

  /**
   * Reads {@code file}.
   *
   * @throws BadInputException naming the file (and the line) when it cannot be read or is not such a curve
   */
  public static BusBandwidthReference read(Path file) {
    List<String> lines = lines(file);
    String source = "";
    boolean headerSeen = false;
    List<Point> points = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i).strip();
      String where = "--reference " + file + ":" + (i + 1) + ": ";
      if (line.isEmpty()) continue;
      if (line.startsWith("#")) {
        if (source.isEmpty() && !headerSeen) source = line.substring(1).strip();
        continue;
      }
      if (!headerSeen) {
        if (!line.equals(HEADER)) {
          throw new BadInputException(where + "expected the header '" + HEADER + "', found '" + shorten(line) + "'");
        }
        headerSeen = true;
        continue;
      }
      if (points.size() == MAX_ROWS) {
        throw new BadInputException(where + "more than " + MAX_ROWS + " rows");
      }
      Point point = point(line, where);
      if (!points.isEmpty() && point.sizeBytes() <= points.get(points.size() - 1).sizeBytes()) {
        throw new BadInputException(where + "size " + point.sizeBytes() + " does not follow "
            + points.get(points.size() - 1).sizeBytes() + ": sizes must increase");
      }
      points.add(point);
    }
    if (!headerSeen) {
      throw new BadInputException("--reference " + file + ": no header '" + HEADER + "'");
    }
    if (points.isEmpty()) {
      throw new BadInputException("--reference " + file + ": no rows after the header");
    }
    return new BusBandwidthReference(file, source, points);
  }

  private static Point point(String line, String where) {
    String[] fields = line.split(",", -1);
    if (fields.length != 2) {
      throw new BadInputException(where + "expected 2 fields (size_bytes,busbw_GBps), found " + fields.length);
    }
    long size;
    try {
      size = Long.parseLong(fields[0].strip());
    } catch (NumberFormatException e) {
      throw new BadInputException(where + "size_bytes '" + shorten(fields[0].strip()) + "' is not a whole number");
    }
    if (size < 1) throw new BadInputException(where + "size_bytes " + size + " must be at least 1");
    double busBw;
    try {
      busBw = Double.parseDouble(fields[1].strip());
    } catch (NumberFormatException e) {
      throw new BadInputException(where + "busbw_GBps '" + shorten(fields[1].strip()) + "' is not a number");
    }
    if (!Double.isFinite(busBw) || busBw < 0) {
      throw new BadInputException(where + "busbw_GBps " + shorten(fields[1].strip())
          + " must be a finite number, not negative");
    }
    return new Point(size, busBw);
  }

  private static List<String> lines(Path file) {
    try {
      if (!Files.isRegularFile(file)) {
        throw new BadInputException("--reference " + file + ": "
            + (Files.exists(file) ? "not a file" : "no such file"));
      }
      if (Files.size(file) > MAX_FILE_BYTES) {
        throw new BadInputException("--reference " + file + ": larger than " + MAX_FILE_BYTES + " bytes");
      }
      byte[] bytes = Files.readAllBytes(file);
      String text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT).decode(java.nio.ByteBuffer.wrap(bytes)).toString();
      // A byte-order mark is no part of the header.
      return (text.startsWith("\uFEFF") ? text.substring(1) : text).lines().toList();
    } catch (NoSuchFileException e) {
      throw new BadInputException("--reference " + file + ": no such file");
    } catch (CharacterCodingException e) {
      throw new BadInputException("--reference " + file + ": not UTF-8 text");
    } catch (IOException e) {
      throw new BadInputException("--reference " + file + ": cannot read it (" + e.getClass().getSimpleName() + ")");
    }
  }

  private static String shorten(String text) {
    return text.length() <= 40 ? text : text.substring(0, 37) + "...";
  }
}

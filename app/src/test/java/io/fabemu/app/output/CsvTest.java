package io.fabemu.app.output;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

public class CsvTest {

  /** An RFC 4180 reader for one row, to check that what is written reads back as it was. */
  public static List<String> readRow(String line) {
    List<String> fields = new ArrayList<>();
    StringBuilder field = new StringBuilder();
    boolean quoted = false;
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (quoted) {
        if (c == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
          field.append('"');
          i++;
        } else if (c == '"') {
          quoted = false;
        } else {
          field.append(c);
        }
      } else if (c == '"') {
        quoted = true;
      } else if (c == ',') {
        fields.add(field.toString());
        field.setLength(0);
      } else {
        field.append(c);
      }
    }
    fields.add(field.toString());
    return fields;
  }

  @Test
  void shouldQuoteOnlyFieldsThatNeedIt() {
    assertThat(Csv.field("ring")).isEqualTo("ring");
    assertThat(Csv.field("leaf-spine: 16 hosts, 4 TORs")).isEqualTo("\"leaf-spine: 16 hosts, 4 TORs\"");
    assertThat(Csv.field("say \"hi\"")).isEqualTo("\"say \"\"hi\"\"\"");
    assertThat(Csv.field("two\nlines")).isEqualTo("\"two\nlines\"");
    assertThat(Csv.field(" padded")).isEqualTo("\" padded\"");
    assertThat(Csv.field("")).isEmpty();
    assertThat(Csv.field(null)).isEmpty();
  }

  @Test
  void shouldReadBackEveryFieldExactly() {
    List<String> fields = List.of("a,b", "\"q\"", "", "plain", "x \"y\", z");

    String row = Csv.row(fields);

    assertThat(row).endsWith("\n");
    assertThat(readRow(row.substring(0, row.length() - 1))).isEqualTo(fields);
    assertThat(Csv.table(List.of("h1", "h2"), List.of(List.of("1", "2"), List.of("3", "4"))))
        .isEqualTo("h1,h2\n1,2\n3,4\n");
  }
}

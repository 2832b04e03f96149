package io.fabemu.app.report;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** Test helper: parses the report's HTML (which is well-formed XML by contract) and finds elements in it. */
public final class Xml {
  private Xml() {}

  /** The document; a parse error (a tag left open, an unescaped '<' or '&') fails the test. */
  public static Document parse(String markup) throws Exception {
    DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
    factory.setNamespaceAware(false);
    factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", false);
    return factory.newDocumentBuilder().parse(new ByteArrayInputStream(markup.getBytes(StandardCharsets.UTF_8)));
  }

  /** Every element named {@code tag}, in document order. */
  public static List<Element> all(Document doc, String tag) {
    NodeList nodes = doc.getElementsByTagName(tag);
    List<Element> out = new ArrayList<>();
    for (int i = 0; i < nodes.getLength(); i++) out.add((Element) nodes.item(i));
    return out;
  }

  /** The text of every element named {@code tag}. */
  public static List<String> texts(Document doc, String tag) {
    return all(doc, tag).stream().map(Element::getTextContent).toList();
  }
}

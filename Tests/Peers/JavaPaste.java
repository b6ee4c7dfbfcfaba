// A Java 17 Swing/AWT application reading the system clipboard as Java programs do:
// Toolkit.getSystemClipboard().getData(DataFlavor.stringFlavor), written to standard output in UTF-8.
// Run as a single source file (java JavaPaste.java; no javac step). Exit 0 with the text; exit 3 with the
// exception on stderr.
import java.awt.Toolkit;
import java.awt.datatransfer.Clipboard;
import java.awt.datatransfer.DataFlavor;
import java.io.BufferedOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

public class JavaPaste {
    public static void main(String[] arguments) throws Exception {
        Clipboard clipboard = Toolkit.getDefaultToolkit().getSystemClipboard();
        String text;
        try {
            text = (String) clipboard.getData(DataFlavor.stringFlavor);
        } catch (Exception error) {
            System.err.println("java: " + error);
            System.exit(3);
            return;
        }
        OutputStream output = new BufferedOutputStream(System.out, 1 << 16);
        output.write(text.getBytes(StandardCharsets.UTF_8));
        output.flush();
        System.exit(0);
    }
}

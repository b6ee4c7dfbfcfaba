// A Java 17 Swing/AWT application copying text as Java programs do:
// Toolkit.getSystemClipboard().setContents(new StringSelection(text), owner). AWT then offers every native target
// its flavour map lists for text (UTF8_STRING, STRING, TEXT, COMPOUND_TEXT, text/plain with a dozen charsets,
// among them "unicode" — UTF-16 with a byte-order mark).
// Run as a single source file: java JavaCopy.java TEXT. Prints "ready" once it owns CLIPBOARD, "lost" when another
// client takes it, and serves until killed.
import java.awt.Toolkit;
import java.awt.datatransfer.Clipboard;
import java.awt.datatransfer.ClipboardOwner;
import java.awt.datatransfer.StringSelection;
import java.awt.datatransfer.Transferable;

public class JavaCopy {
    public static void main(String[] arguments) throws Exception {
        Clipboard clipboard = Toolkit.getDefaultToolkit().getSystemClipboard();
        ClipboardOwner owner = (Clipboard lostFrom, Transferable contents) -> {
            System.out.println("lost");
            System.out.flush();
        };
        clipboard.setContents(new StringSelection(arguments[0]), owner);
        System.out.println("ready");
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }
}

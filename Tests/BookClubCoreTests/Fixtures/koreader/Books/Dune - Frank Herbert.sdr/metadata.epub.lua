-- /mnt/onboard/Books/Dune - Frank Herbert.sdr/metadata.epub.lua
return {
    ["annotations"] = {
        [1] = {
            ["chapter"] = "Book One: Dune",
            ["color"] = "yellow",
            ["datetime"] = "2024-08-01 19:05:33",
            ["drawer"] = "lighten",
            ["page"] = "/body/DocFragment[5]/body/p[12]/text().0",
            ["pageno"] = 8,
            ["pos0"] = "/body/DocFragment[5]/body/p[12]/text().0",
            ["pos1"] = "/body/DocFragment[5]/body/p[12]/text().24",
            ["text"] = "Fear is the mind-killer.",
        },
        [2] = {
            ["chapter"] = "Book One: Dune",
            ["datetime"] = "2024-08-01 19:10:00",
            ["page"] = "/body/DocFragment[5]/body/p[30]/text().0",
            ["pageno"] = 9,
        },
        [3] = {
            ["chapter"] = "Book One: Dune",
            ["color"] = "yellow",
            ["datetime"] = "2024-08-02 21:00:10",
            ["drawer"] = "underscore",
            ["note"] = "The \"spice\" — ask the club\
about this one",
            ["page"] = "/body/DocFragment[9]/body/p[3]/text().5",
            ["pageno"] = 40,
            ["pos0"] = "/body/DocFragment[9]/body/p[3]/text().5",
            ["pos1"] = "/body/DocFragment[9]/body/p[3]/text().80",
            ["text"] = "The spice extends life.\tThe spice expands consciousness. ノルウェイ",
        },
    },
    ["doc_pages"] = 617,
    ["doc_path"] = "/mnt/onboard/Books/Dune - Frank Herbert.epub",
    ["doc_props"] = {
        ["authors"] = "Frank Herbert",
        ["description"] = "",
        ["identifiers"] = "uuid:8c1b6f0e-1111-4b6f-9e8c-2f6d1c0a7e55\nISBN:978-0-441-01359-3",
        ["keywords"] = "",
        ["language"] = "en",
        ["series"] = "",
        ["title"] = "Dune",
    },
    ["partial_md5_checksum"] = "5A1B2C3D4E5F60718293A4B5C6D7E8F9",
    ["percent_finished"] = 0.4567,
    ["summary"] = {
        ["modified"] = "2024-08-02",
        ["status"] = "reading",
    },
}

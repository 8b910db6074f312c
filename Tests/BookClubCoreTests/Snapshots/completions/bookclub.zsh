#compdef bookclub

_bookclub() {
    local cmd='bookclub' word skip= option= listing= files= i n=0
    local -a opts subcommands values pass candidates
    for (( i = 2; i < CURRENT; i++ )); do
        word=${words[i]}
        if [[ -n $skip ]]; then
            case $skip in (--store|--settings)) pass+=("$skip=${${(Q)word}/#\~/$HOME}") ;; esac
            skip=
            continue
        fi
        case $word in (--store=*|--settings=*) pass+=("${(Q)word}") ;; esac
        case "$cmd:$word" in
            ('bookclub:add') cmd='bookclub/add'; n=0 ;;
            ('bookclub:list') cmd='bookclub/list'; n=0 ;;
            ('bookclub:ls') cmd='bookclub/list'; n=0 ;;
            ('bookclub:show') cmd='bookclub/show'; n=0 ;;
            ('bookclub:progress') cmd='bookclub/progress'; n=0 ;;
            ('bookclub:highlight') cmd='bookclub/highlight'; n=0 ;;
            ('bookclub:finish') cmd='bookclub/finish'; n=0 ;;
            ('bookclub:unfinish') cmd='bookclub/unfinish'; n=0 ;;
            ('bookclub:abandon') cmd='bookclub/abandon'; n=0 ;;
            ('bookclub:reread') cmd='bookclub/reread'; n=0 ;;
            ('bookclub:edit') cmd='bookclub/edit'; n=0 ;;
            ('bookclub:remove') cmd='bookclub/remove'; n=0 ;;
            ('bookclub:rm') cmd='bookclub/remove'; n=0 ;;
            ('bookclub:notes') cmd='bookclub/notes'; n=0 ;;
            ('bookclub:select') cmd='bookclub/select'; n=0 ;;
            ('bookclub:undo') cmd='bookclub/undo'; n=0 ;;
            ('bookclub:history') cmd='bookclub/history'; n=0 ;;
            ('bookclub:doctor') cmd='bookclub/doctor'; n=0 ;;
            ('bookclub:agenda') cmd='bookclub/agenda'; n=0 ;;
            ('bookclub:export') cmd='bookclub/export'; n=0 ;;
            ('bookclub:log') cmd='bookclub/log'; n=0 ;;
            ('bookclub:import') cmd='bookclub/import'; n=0 ;;
            ('bookclub:stats') cmd='bookclub/stats'; n=0 ;;
            ('bookclub:lookup') cmd='bookclub/lookup'; n=0 ;;
            ('bookclub:cover') cmd='bookclub/cover'; n=0 ;;
            ('bookclub:covers') cmd='bookclub/covers'; n=0 ;;
            ('bookclub:sync') cmd='bookclub/sync'; n=0 ;;
            ('bookclub:completions') cmd='bookclub/completions'; n=0 ;;
            ('bookclub:manual') cmd='bookclub/manual'; n=0 ;;
            ('bookclub:club') cmd='bookclub/club'; n=0 ;;
            ('bookclub:settings') cmd='bookclub/settings'; n=0 ;;
            ('bookclub/club:add') cmd='bookclub/club/add'; n=0 ;;
            ('bookclub/club:list') cmd='bookclub/club/list'; n=0 ;;
            ('bookclub/club:show') cmd='bookclub/club/show'; n=0 ;;
            ('bookclub/club:rename') cmd='bookclub/club/rename'; n=0 ;;
            ('bookclub/club:remove') cmd='bookclub/club/remove'; n=0 ;;
            ('bookclub/club:rm') cmd='bookclub/club/remove'; n=0 ;;
            ('bookclub/club:meeting') cmd='bookclub/club/meeting'; n=0 ;;
            ('bookclub/club:meetings') cmd='bookclub/club/meetings'; n=0 ;;
            ('bookclub/club:cancel') cmd='bookclub/club/cancel'; n=0 ;;
            ('bookclub/club:share') cmd='bookclub/club/share'; n=0 ;;
            ('bookclub/club:join') cmd='bookclub/club/join'; n=0 ;;
            ('bookclub/club:members') cmd='bookclub/club/members'; n=0 ;;
            ('bookclub/club:admit') cmd='bookclub/club/admit'; n=0 ;;
            ('bookclub/club:host') cmd='bookclub/club/host'; n=0 ;;
            ('bookclub/club:expel') cmd='bookclub/club/expel'; n=0 ;;
            ('bookclub/club:leave') cmd='bookclub/club/leave'; n=0 ;;
            ('bookclub/club:link') cmd='bookclub/club/link'; n=0 ;;
            ('bookclub/club:post') cmd='bookclub/club/post'; n=0 ;;
            ('bookclub/club:feed') cmd='bookclub/club/feed'; n=0 ;;
            ('bookclub/club:rsvp') cmd='bookclub/club/rsvp'; n=0 ;;
            ('bookclub/club:poll') cmd='bookclub/club/poll'; n=0 ;;
            ('bookclub/club:vote') cmd='bookclub/club/vote'; n=0 ;;
            ('bookclub/club:polls') cmd='bookclub/club/polls'; n=0 ;;
            ('bookclub/club:close') cmd='bookclub/club/close'; n=0 ;;
            ('bookclub/club:policy') cmd='bookclub/club/policy'; n=0 ;;
            ('bookclub/club:sync') cmd='bookclub/club/sync'; n=0 ;;
            ('bookclub/settings:list') cmd='bookclub/settings/list'; n=0 ;;
            ('bookclub/settings:get') cmd='bookclub/settings/get'; n=0 ;;
            ('bookclub/settings:set') cmd='bookclub/settings/set'; n=0 ;;
            ('bookclub/settings:reset') cmd='bookclub/settings/reset'; n=0 ;;
            ('bookclub:--store'|'bookclub:--settings'|'bookclub:--color') skip=$word ;;
            ('bookclub/add:--author'|'bookclub/add:-a'|'bookclub/add:--pages'|'bookclub/add:-p'|'bookclub/add:--isbn'|'bookclub/add:--cover'|'bookclub/add:--tag'|'bookclub/add:-t'|'bookclub/add:--format'|'bookclub/add:--length'|'bookclub/add:--store'|'bookclub/add:--settings'|'bookclub/add:--color') skip=$word ;;
            ('bookclub/list:--tag'|'bookclub/list:-t'|'bookclub/list:--store'|'bookclub/list:--settings'|'bookclub/list:--color') skip=$word ;;
            ('bookclub/show:--store'|'bookclub/show:--settings'|'bookclub/show:--color') skip=$word ;;
            ('bookclub/progress:--note'|'bookclub/progress:--date'|'bookclub/progress:--store'|'bookclub/progress:--settings'|'bookclub/progress:--color') skip=$word ;;
            ('bookclub/highlight:--page'|'bookclub/highlight:-p'|'bookclub/highlight:--note'|'bookclub/highlight:--date'|'bookclub/highlight:--club'|'bookclub/highlight:--store'|'bookclub/highlight:--settings'|'bookclub/highlight:--color') skip=$word ;;
            ('bookclub/finish:--date'|'bookclub/finish:--note'|'bookclub/finish:--rating'|'bookclub/finish:--review'|'bookclub/finish:--store'|'bookclub/finish:--settings'|'bookclub/finish:--color') skip=$word ;;
            ('bookclub/unfinish:--store'|'bookclub/unfinish:--settings'|'bookclub/unfinish:--color') skip=$word ;;
            ('bookclub/abandon:--date'|'bookclub/abandon:--note'|'bookclub/abandon:--store'|'bookclub/abandon:--settings'|'bookclub/abandon:--color') skip=$word ;;
            ('bookclub/reread:--format'|'bookclub/reread:--length'|'bookclub/reread:--store'|'bookclub/reread:--settings'|'bookclub/reread:--color') skip=$word ;;
            ('bookclub/edit:--title'|'bookclub/edit:--author'|'bookclub/edit:-a'|'bookclub/edit:--pages'|'bookclub/edit:-p'|'bookclub/edit:--isbn'|'bookclub/edit:--cover'|'bookclub/edit:--format'|'bookclub/edit:--length'|'bookclub/edit:--add-tag'|'bookclub/edit:--remove-tag'|'bookclub/edit:--rating'|'bookclub/edit:--review'|'bookclub/edit:--store'|'bookclub/edit:--settings'|'bookclub/edit:--color') skip=$word ;;
            ('bookclub/remove:--store'|'bookclub/remove:--settings'|'bookclub/remove:--color') skip=$word ;;
            ('bookclub/notes:--club'|'bookclub/notes:--meeting'|'bookclub/notes:--output'|'bookclub/notes:-o'|'bookclub/notes:--store'|'bookclub/notes:--settings'|'bookclub/notes:--color') skip=$word ;;
            ('bookclub/select:--club'|'bookclub/select:--store'|'bookclub/select:--settings'|'bookclub/select:--color') skip=$word ;;
            ('bookclub/undo:--store'|'bookclub/undo:--settings'|'bookclub/undo:--color') skip=$word ;;
            ('bookclub/history:--store'|'bookclub/history:--settings'|'bookclub/history:--color') skip=$word ;;
            ('bookclub/doctor:--store'|'bookclub/doctor:--settings'|'bookclub/doctor:--color') skip=$word ;;
            ('bookclub/agenda:--days'|'bookclub/agenda:--club'|'bookclub/agenda:--store'|'bookclub/agenda:--settings'|'bookclub/agenda:--color') skip=$word ;;
            ('bookclub/export:--format'|'bookclub/export:--output'|'bookclub/export:-o'|'bookclub/export:--store'|'bookclub/export:--settings'|'bookclub/export:--color') skip=$word ;;
            ('bookclub/log:--store'|'bookclub/log:--settings'|'bookclub/log:--color') skip=$word ;;
            ('bookclub/import:--read-column'|'bookclub/import:--date-read-column'|'bookclub/import:--store'|'bookclub/import:--settings'|'bookclub/import:--color') skip=$word ;;
            ('bookclub/stats:--year'|'bookclub/stats:--output'|'bookclub/stats:-o'|'bookclub/stats:--store'|'bookclub/stats:--settings'|'bookclub/stats:--color') skip=$word ;;
            ('bookclub/lookup:--store'|'bookclub/lookup:--settings'|'bookclub/lookup:--color') skip=$word ;;
            ('bookclub/cover:--store'|'bookclub/cover:--settings'|'bookclub/cover:--color') skip=$word ;;
            ('bookclub/covers:--limit'|'bookclub/covers:-n'|'bookclub/covers:--store'|'bookclub/covers:--settings'|'bookclub/covers:--color') skip=$word ;;
            ('bookclub/sync:--name'|'bookclub/sync:--store'|'bookclub/sync:--settings'|'bookclub/sync:--color') skip=$word ;;
            ('bookclub/completions:--store'|'bookclub/completions:--settings'|'bookclub/completions:--color') skip=$word ;;
            ('bookclub/manual:--store'|'bookclub/manual:--settings'|'bookclub/manual:--color') skip=$word ;;
            ('bookclub/club:--store'|'bookclub/club:--settings'|'bookclub/club:--color') skip=$word ;;
            ('bookclub/club/add:--description'|'bookclub/club/add:--store'|'bookclub/club/add:--settings'|'bookclub/club/add:--color') skip=$word ;;
            ('bookclub/club/list:--store'|'bookclub/club/list:--settings'|'bookclub/club/list:--color') skip=$word ;;
            ('bookclub/club/show:--store'|'bookclub/club/show:--settings'|'bookclub/club/show:--color') skip=$word ;;
            ('bookclub/club/rename:--store'|'bookclub/club/rename:--settings'|'bookclub/club/rename:--color') skip=$word ;;
            ('bookclub/club/remove:--store'|'bookclub/club/remove:--settings'|'bookclub/club/remove:--color') skip=$word ;;
            ('bookclub/club/meeting:--date'|'bookclub/club/meeting:--book'|'bookclub/club/meeting:--target'|'bookclub/club/meeting:--label'|'bookclub/club/meeting:--where'|'bookclub/club/meeting:--winner'|'bookclub/club/meeting:--store'|'bookclub/club/meeting:--settings'|'bookclub/club/meeting:--color') skip=$word ;;
            ('bookclub/club/meetings:--store'|'bookclub/club/meetings:--settings'|'bookclub/club/meetings:--color') skip=$word ;;
            ('bookclub/club/cancel:--store'|'bookclub/club/cancel:--settings'|'bookclub/club/cancel:--color') skip=$word ;;
            ('bookclub/club/share:--name'|'bookclub/club/share:--store'|'bookclub/club/share:--settings'|'bookclub/club/share:--color') skip=$word ;;
            ('bookclub/club/join:--founder'|'bookclub/club/join:--name'|'bookclub/club/join:--store'|'bookclub/club/join:--settings'|'bookclub/club/join:--color') skip=$word ;;
            ('bookclub/club/members:--store'|'bookclub/club/members:--settings'|'bookclub/club/members:--color') skip=$word ;;
            ('bookclub/club/admit:--store'|'bookclub/club/admit:--settings'|'bookclub/club/admit:--color') skip=$word ;;
            ('bookclub/club/host:--store'|'bookclub/club/host:--settings'|'bookclub/club/host:--color') skip=$word ;;
            ('bookclub/club/expel:--store'|'bookclub/club/expel:--settings'|'bookclub/club/expel:--color') skip=$word ;;
            ('bookclub/club/leave:--store'|'bookclub/club/leave:--settings'|'bookclub/club/leave:--color') skip=$word ;;
            ('bookclub/club/link:--club-book'|'bookclub/club/link:--store'|'bookclub/club/link:--settings'|'bookclub/club/link:--color') skip=$word ;;
            ('bookclub/club/post:--at'|'bookclub/club/post:--club-book'|'bookclub/club/post:--store'|'bookclub/club/post:--settings'|'bookclub/club/post:--color') skip=$word ;;
            ('bookclub/club/feed:--store'|'bookclub/club/feed:--settings'|'bookclub/club/feed:--color') skip=$word ;;
            ('bookclub/club/rsvp:--note'|'bookclub/club/rsvp:--store'|'bookclub/club/rsvp:--settings'|'bookclub/club/rsvp:--color') skip=$word ;;
            ('bookclub/club/poll:--option'|'bookclub/club/poll:--book'|'bookclub/club/poll:--closes'|'bookclub/club/poll:--store'|'bookclub/club/poll:--settings'|'bookclub/club/poll:--color') skip=$word ;;
            ('bookclub/club/vote:--store'|'bookclub/club/vote:--settings'|'bookclub/club/vote:--color') skip=$word ;;
            ('bookclub/club/polls:--store'|'bookclub/club/polls:--settings'|'bookclub/club/polls:--color') skip=$word ;;
            ('bookclub/club/close:--store'|'bookclub/club/close:--settings'|'bookclub/club/close:--color') skip=$word ;;
            ('bookclub/club/policy:--polls'|'bookclub/club/policy:--store'|'bookclub/club/policy:--settings'|'bookclub/club/policy:--color') skip=$word ;;
            ('bookclub/club/sync:--store'|'bookclub/club/sync:--settings'|'bookclub/club/sync:--color') skip=$word ;;
            ('bookclub/settings:--store'|'bookclub/settings:--settings'|'bookclub/settings:--color') skip=$word ;;
            ('bookclub/settings/list:--store'|'bookclub/settings/list:--settings'|'bookclub/settings/list:--color') skip=$word ;;
            ('bookclub/settings/get:--store'|'bookclub/settings/get:--settings'|'bookclub/settings/get:--color') skip=$word ;;
            ('bookclub/settings/set:--store'|'bookclub/settings/set:--settings'|'bookclub/settings/set:--color') skip=$word ;;
            ('bookclub/settings/reset:--store'|'bookclub/settings/reset:--settings'|'bookclub/settings/reset:--color') skip=$word ;;
            (*:-*) ;;
            (*) n=$(( n + 1 )) ;;
        esac
    done
    if [[ -n $skip ]]; then
        option=$skip
    elif [[ $PREFIX == --*=* ]]; then
        option=${PREFIX%%=*}
        compset -P '*='
    fi
    if [[ -n $option ]]; then
        case "$cmd:$option" in
            ('bookclub:--store') files=1 ;;
            ('bookclub:--settings') files=1 ;;
            ('bookclub:--color') values=('auto' 'always' 'never') ;;
            ('bookclub/add:--format') values=('print' 'ebook' 'audiobook') ;;
            ('bookclub/add:--store') files=1 ;;
            ('bookclub/add:--settings') files=1 ;;
            ('bookclub/add:--color') values=('auto' 'always' 'never') ;;
            ('bookclub/list:--store') files=1 ;;
            ('bookclub/list:--settings') files=1 ;;
            ('bookclub/list:--color') values=('auto' 'always' 'never') ;;
            ('bookclub/show:--store') files=1 ;;
            ('bookclub/show:--settings') files=1 ;;
            ('bookclub/show:--color') values=('auto' 'always' 'never') ;;
            ('bookclub/progress:--date') values=('today' 'yesterday' 'monday' 'tuesday' 'wednesday' 'thursday' 'friday' 'saturday' 'sunday') ;;
            ('bookclub/progress:--store') files=1 ;;
            ('bookclub/progress:--settings') files=1 ;;
            ('bookclub/progress:--color') values=('auto' 'always' 'never') ;;
            ('bookclub/highlight:--date') values=('today' 'yesterday' 'monday' 'tuesday' 'wednesday' 'thursday' 'friday' 'saturday' 'sunday') ;;
            ('bookclub/highlight:--club') listing=--clubs ;;
            ('bookclub/highlight:--store') files=1 ;;
            ('bookclub/highlight:--settings') files=1 ;;
            ('bookclub/highlight:--color') values=('auto' 'always' 'never') ;;
            ('bookclub/finish:--date') values=('today' 'yesterday' 'monday' 'tuesday' 'wednesday' 'thursday' 'friday' 'saturday' 'sunday') ;;
            ('bookclub/finish:--store') files=1 ;;
            ('bookclub/finish:--settings') files=1 ;;
            ('bookclub/finish:--color') values=('auto' 'always' 'never') ;;
            ('bookclub/unfinish:--store') files=1 ;;
            ('bookclub/unfinish:--settings') files=1 ;;
            ('bookclub/unfinish:--color') values=('auto' 'always' 'never') ;;
            ('bookclub/abandon:--date') values=('today' 'yesterday' 'monday' 'tuesday' 'wednesday' 'thursday' 'friday' 'saturday' 'sunday') ;;
            ('bookclub/abandon:--store') files=1 ;;
            ('bookclub/abandon:--settings') files=1 ;;
            ('bookclub/abandon:--color') values=('auto' 'always' 'never') ;;
            ('bookclub/reread:--format') values=('print' 'ebook' 'audiobook') ;;
            ('bookclub/reread:--store') files=1 ;;
            ('bookclub/reread:--settings') files=1 ;;
            ('bookclub/reread:--color') values=('auto' 'always' 'never') ;;
            ('bookclub/edit:--format') values=('print' 'ebook' 'audiobook') ;;
            ('bookclub/edit:--store') files=1 ;;
            ('bookclub/edit:--settings') files=1 ;;
            ('bookclub/edit:--color') values=('auto' 'always' 'never') ;;
            ('bookclub/remove:--store') files=1 ;;
            ('bookclub/remove:--settings') files=1 ;;
            ('bookclub/remove:--color') values=('auto' 'always' 'never') ;;
            ('bookclub/notes:--club') listing=--clubs ;;
            ('bookclub/notes:--meeting') listing=--meetings ;;
            ('bookclub/notes:--output'|'bookclub/notes:-o') files=1 ;;
            ('bookclub/notes:--store') files=1 ;;
            ('bookclub/notes:--settings') files=1 ;;
            ('bookclub/notes:--color') values=('auto' 'always' 'never') ;;
            ('bookclub/select:--club') listing=--clubs ;;
            ('bookclub/select:--store') files=1 ;;
            ('bookclub/select:--settings') files=1 ;;
            ('bookclub/select:--color') values=('auto' 'always' 'never') ;;
            ('bookclub/undo:--store') files=1 ;;
            ('bookclub/undo:--settings') files=1 ;;
            ('bookclub/undo:--color') values=('auto' 'always' 'never') ;;
            ('bookclub/history:--store') files=1 ;;
            ('bookclub/history:--settings') files=1 ;;
            ('bookclub/history:--color') values=('auto' 'always' 'never') ;;
            ('bookclub/doctor:--store') files=1 ;;
            ('bookclub/doctor:--settings') files=1 ;;
            ('bookclub/doctor:--color') values=('auto' 'always' 'never') ;;
            ('bookclub/agenda:--club') listing=--clubs ;;
            ('bookclub/agenda:--store') files=1 ;;
            ('bookclub/agenda:--settings') files=1 ;;
            ('bookclub/agenda:--color') values=('auto' 'always' 'never') ;;
            ('bookclub/export:--format') values=('json' 'csv' 'markdown') ;;
            ('bookclub/export:--output'|'bookclub/export:-o') files=1 ;;
            ('bookclub/export:--store') files=1 ;;
            ('bookclub/export:--settings') files=1 ;;
            ('bookclub/export:--color') values=('auto' 'always' 'never') ;;
            ('bookclub/log:--store') files=1 ;;
            ('bookclub/log:--settings') files=1 ;;
            ('bookclub/log:--color') values=('auto' 'always' 'never') ;;
            ('bookclub/import:--store') files=1 ;;
            ('bookclub/import:--settings') files=1 ;;
            ('bookclub/import:--color') values=('auto' 'always' 'never') ;;
            ('bookclub/stats:--output'|'bookclub/stats:-o') files=1 ;;
            ('bookclub/stats:--store') files=1 ;;
            ('bookclub/stats:--settings') files=1 ;;
            ('bookclub/stats:--color') values=('auto' 'always' 'never') ;;
            ('bookclub/lookup:--store') files=1 ;;
            ('bookclub/lookup:--settings') files=1 ;;
            ('bookclub/lookup:--color') values=('auto' 'always' 'never') ;;
            ('bookclub/cover:--store') files=1 ;;
            ('bookclub/cover:--settings') files=1 ;;
            ('bookclub/cover:--color') values=('auto' 'always' 'never') ;;
            ('bookclub/covers:--store') files=1 ;;
            ('bookclub/covers:--settings') files=1 ;;
            ('bookclub/covers:--color') values=('auto' 'always' 'never') ;;
            ('bookclub/sync:--store') files=1 ;;
            ('bookclub/sync:--settings') files=1 ;;
            ('bookclub/sync:--color') values=('auto' 'always' 'never') ;;
            ('bookclub/completions:--store') files=1 ;;
            ('bookclub/completions:--settings') files=1 ;;
            ('bookclub/completions:--color') values=('auto' 'always' 'never') ;;
            ('bookclub/manual:--store') files=1 ;;
            ('bookclub/manual:--settings') files=1 ;;
            ('bookclub/manual:--color') values=('auto' 'always' 'never') ;;
            ('bookclub/club:--store') files=1 ;;
            ('bookclub/club:--settings') files=1 ;;
            ('bookclub/club:--color') values=('auto' 'always' 'never') ;;
            ('bookclub/club/add:--store') files=1 ;;
            ('bookclub/club/add:--settings') files=1 ;;
            ('bookclub/club/add:--color') values=('auto' 'always' 'never') ;;
            ('bookclub/club/list:--store') files=1 ;;
            ('bookclub/club/list:--settings') files=1 ;;
            ('bookclub/club/list:--color') values=('auto' 'always' 'never') ;;
            ('bookclub/club/show:--store') files=1 ;;
            ('bookclub/club/show:--settings') files=1 ;;
            ('bookclub/club/show:--color') values=('auto' 'always' 'never') ;;
            ('bookclub/club/rename:--store') files=1 ;;
            ('bookclub/club/rename:--settings') files=1 ;;
            ('bookclub/club/rename:--color') values=('auto' 'always' 'never') ;;
            ('bookclub/club/remove:--store') files=1 ;;
            ('bookclub/club/remove:--settings') files=1 ;;
            ('bookclub/club/remove:--color') values=('auto' 'always' 'never') ;;
            ('bookclub/club/meeting:--date') values=('today' 'yesterday' 'monday' 'tuesday' 'wednesday' 'thursday' 'friday' 'saturday' 'sunday') ;;
            ('bookclub/club/meeting:--book') listing=--titles ;;
            ('bookclub/club/meeting:--store') files=1 ;;
            ('bookclub/club/meeting:--settings') files=1 ;;
            ('bookclub/club/meeting:--color') values=('auto' 'always' 'never') ;;
            ('bookclub/club/meetings:--store') files=1 ;;
            ('bookclub/club/meetings:--settings') files=1 ;;
            ('bookclub/club/meetings:--color') values=('auto' 'always' 'never') ;;
            ('bookclub/club/cancel:--store') files=1 ;;
            ('bookclub/club/cancel:--settings') files=1 ;;
            ('bookclub/club/cancel:--color') values=('auto' 'always' 'never') ;;
            ('bookclub/club/share:--store') files=1 ;;
            ('bookclub/club/share:--settings') files=1 ;;
            ('bookclub/club/share:--color') values=('auto' 'always' 'never') ;;
            ('bookclub/club/join:--store') files=1 ;;
            ('bookclub/club/join:--settings') files=1 ;;
            ('bookclub/club/join:--color') values=('auto' 'always' 'never') ;;
            ('bookclub/club/members:--store') files=1 ;;
            ('bookclub/club/members:--settings') files=1 ;;
            ('bookclub/club/members:--color') values=('auto' 'always' 'never') ;;
            ('bookclub/club/admit:--store') files=1 ;;
            ('bookclub/club/admit:--settings') files=1 ;;
            ('bookclub/club/admit:--color') values=('auto' 'always' 'never') ;;
            ('bookclub/club/host:--store') files=1 ;;
            ('bookclub/club/host:--settings') files=1 ;;
            ('bookclub/club/host:--color') values=('auto' 'always' 'never') ;;
            ('bookclub/club/expel:--store') files=1 ;;
            ('bookclub/club/expel:--settings') files=1 ;;
            ('bookclub/club/expel:--color') values=('auto' 'always' 'never') ;;
            ('bookclub/club/leave:--store') files=1 ;;
            ('bookclub/club/leave:--settings') files=1 ;;
            ('bookclub/club/leave:--color') values=('auto' 'always' 'never') ;;
            ('bookclub/club/link:--store') files=1 ;;
            ('bookclub/club/link:--settings') files=1 ;;
            ('bookclub/club/link:--color') values=('auto' 'always' 'never') ;;
            ('bookclub/club/post:--store') files=1 ;;
            ('bookclub/club/post:--settings') files=1 ;;
            ('bookclub/club/post:--color') values=('auto' 'always' 'never') ;;
            ('bookclub/club/feed:--store') files=1 ;;
            ('bookclub/club/feed:--settings') files=1 ;;
            ('bookclub/club/feed:--color') values=('auto' 'always' 'never') ;;
            ('bookclub/club/rsvp:--store') files=1 ;;
            ('bookclub/club/rsvp:--settings') files=1 ;;
            ('bookclub/club/rsvp:--color') values=('auto' 'always' 'never') ;;
            ('bookclub/club/poll:--book') listing=--titles ;;
            ('bookclub/club/poll:--closes') values=('today' 'yesterday' 'monday' 'tuesday' 'wednesday' 'thursday' 'friday' 'saturday' 'sunday') ;;
            ('bookclub/club/poll:--store') files=1 ;;
            ('bookclub/club/poll:--settings') files=1 ;;
            ('bookclub/club/poll:--color') values=('auto' 'always' 'never') ;;
            ('bookclub/club/vote:--store') files=1 ;;
            ('bookclub/club/vote:--settings') files=1 ;;
            ('bookclub/club/vote:--color') values=('auto' 'always' 'never') ;;
            ('bookclub/club/polls:--store') files=1 ;;
            ('bookclub/club/polls:--settings') files=1 ;;
            ('bookclub/club/polls:--color') values=('auto' 'always' 'never') ;;
            ('bookclub/club/close:--store') files=1 ;;
            ('bookclub/club/close:--settings') files=1 ;;
            ('bookclub/club/close:--color') values=('auto' 'always' 'never') ;;
            ('bookclub/club/policy:--polls') values=('hosts' 'members') ;;
            ('bookclub/club/policy:--store') files=1 ;;
            ('bookclub/club/policy:--settings') files=1 ;;
            ('bookclub/club/policy:--color') values=('auto' 'always' 'never') ;;
            ('bookclub/club/sync:--store') files=1 ;;
            ('bookclub/club/sync:--settings') files=1 ;;
            ('bookclub/club/sync:--color') values=('auto' 'always' 'never') ;;
            ('bookclub/settings:--store') files=1 ;;
            ('bookclub/settings:--settings') files=1 ;;
            ('bookclub/settings:--color') values=('auto' 'always' 'never') ;;
            ('bookclub/settings/list:--store') files=1 ;;
            ('bookclub/settings/list:--settings') files=1 ;;
            ('bookclub/settings/list:--color') values=('auto' 'always' 'never') ;;
            ('bookclub/settings/get:--store') files=1 ;;
            ('bookclub/settings/get:--settings') files=1 ;;
            ('bookclub/settings/get:--color') values=('auto' 'always' 'never') ;;
            ('bookclub/settings/set:--store') files=1 ;;
            ('bookclub/settings/set:--settings') files=1 ;;
            ('bookclub/settings/set:--color') values=('auto' 'always' 'never') ;;
            ('bookclub/settings/reset:--store') files=1 ;;
            ('bookclub/settings/reset:--settings') files=1 ;;
            ('bookclub/settings/reset:--color') values=('auto' 'always' 'never') ;;
        esac
    elif [[ $PREFIX != -* ]]; then
        case "$cmd:$n" in
            ('bookclub/show:0') listing=--titles ;;
            ('bookclub/progress:0') listing=--titles ;;
            ('bookclub/highlight:0') listing=--titles ;;
            ('bookclub/finish:0') listing=--titles ;;
            ('bookclub/unfinish:0') listing=--titles ;;
            ('bookclub/abandon:0') listing=--titles ;;
            ('bookclub/reread:0') listing=--titles ;;
            ('bookclub/edit:0') listing=--titles ;;
            ('bookclub/remove:0') listing=--titles ;;
            ('bookclub/notes:0') listing=--titles ;;
            ('bookclub/select:0') listing=--titles ;;
            ('bookclub/import:0') values=('goodreads' 'storygraph' 'json' 'calibre' 'kindle' 'koreader' 'kobo' 'libby') ;;
            ('bookclub/import:1') files=1 ;;
            ('bookclub/cover:0') listing=--titles ;;
            ('bookclub/sync:0') values=('init' 'status') ;;
            ('bookclub/completions:0') values=('bash' 'fish' 'zsh') ;;
            ('bookclub/club/show:0') listing=--clubs ;;
            ('bookclub/club/rename:0') listing=--clubs ;;
            ('bookclub/club/remove:0') listing=--clubs ;;
            ('bookclub/club/meeting:0') listing=--clubs ;;
            ('bookclub/club/meetings:0') listing=--clubs ;;
            ('bookclub/club/cancel:0') listing=--clubs ;;
            ('bookclub/club/cancel:1') listing=--meetings ;;
            ('bookclub/club/share:0') listing=--clubs ;;
            ('bookclub/club/members:0') listing=--clubs ;;
            ('bookclub/club/admit:0') listing=--clubs ;;
            ('bookclub/club/host:0') listing=--clubs ;;
            ('bookclub/club/expel:0') listing=--clubs ;;
            ('bookclub/club/leave:0') listing=--clubs ;;
            ('bookclub/club/link:0') listing=--clubs ;;
            ('bookclub/club/link:1') listing=--titles ;;
            ('bookclub/club/post:0') listing=--clubs ;;
            ('bookclub/club/feed:0') listing=--clubs ;;
            ('bookclub/club/rsvp:0') listing=--clubs ;;
            ('bookclub/club/rsvp:1') listing=--meetings ;;
            ('bookclub/club/rsvp:2') values=('yes' 'no' 'maybe') ;;
            ('bookclub/club/poll:0') listing=--clubs ;;
            ('bookclub/club/vote:0') listing=--clubs ;;
            ('bookclub/club/polls:0') listing=--clubs ;;
            ('bookclub/club/close:0') listing=--clubs ;;
            ('bookclub/club/policy:0') listing=--clubs ;;
            ('bookclub/club/sync:0') listing=--clubs ;;
            ('bookclub/settings/get:0') values=('updateArtwork' 'syncProgress' 'syncFolder' 'color' 'lockTimeout' 'hookTimeout' 'yearlyGoal' 'contact' 'networkTimeout' 'coverSizeLimit' 'answerSizeLimit' 'clubProgress' 'clubKey') ;;
            ('bookclub/settings/set:0') values=('updateArtwork' 'syncProgress' 'syncFolder' 'color' 'lockTimeout' 'hookTimeout' 'yearlyGoal' 'contact' 'networkTimeout' 'coverSizeLimit' 'answerSizeLimit' 'clubProgress' 'clubKey') ;;
            ('bookclub/settings/set:1') case ${(Q)words[CURRENT-1]} in ('clubProgress') values=('exact' 'target' 'off') ;; ('color') values=('auto' 'always' 'never') ;; ('syncProgress') values=('true' 'false') ;; ('updateArtwork') values=('true' 'false') ;; esac ;;
            ('bookclub/settings/reset:0') values=('updateArtwork' 'syncProgress' 'syncFolder' 'color' 'lockTimeout' 'hookTimeout' 'yearlyGoal' 'contact' 'networkTimeout' 'coverSizeLimit' 'answerSizeLimit' 'clubProgress' 'clubKey') ;;
        esac
    fi
    if [[ -n $files ]]; then
        _files
        return
    elif [[ -n $listing ]]; then
        candidates=(${(f)"$(bookclub completions $listing "${pass[@]}" 2>/dev/null)"})
        compadd -M 'm:{[:lower:]}={[:upper:]}' -a candidates && return
        # None begins so: those with a word that does, as a BOOK is found; the word typed stays
        # on the line until one is chosen.
        setopt localoptions extendedglob
        candidates=(${(M)candidates:#(#i)*[^[:alnum:]]${(b)PREFIX}*})
        (( ${#candidates} )) || return 1
        (( ${#candidates} > 1 )) && compstate[insert]=
        compadd -U -a candidates
        return
    elif (( ${#values} )); then
        compadd -a values
        return
    elif [[ -n $option ]]; then
        return 1
    fi
    case "$cmd" in
        ('bookclub') opts=('--store' '--settings' '--quiet' '--color' '--no-color' '--no-hooks' '--no-pager' '--version' '--help'); subcommands=('add:Add a book and print its id.' 'list:List books, one line each, with a progress bar.' 'ls:List books, one line each, with a progress bar.' 'show:Show a book'\''s card and its progress history with notes.' 'progress:Log how far you have read.' 'highlight:Keep a passage you marked, for the next meeting.' 'finish:Mark a book finished ("I'\''m Done").' 'unfinish:Resume a finished or abandoned book, so that you can log progress again.' 'abandon:Stop reading a book without finishing it; its progress is kept.' 'reread:Start a new reading of a finished or abandoned book; the old one keeps its history.' 'edit:Change a book'\''s title, author, page count, ISBN, format, cover, tags, rating or review.' 'remove:Delete a book and its history.' 'rm:Delete a book and its history.' 'notes:Print the notes to bring to the next meeting, as Markdown.' 'select:Select the book that commands use when you name none, in this scene.' 'undo:Revert the last command that changed your books or clubs.' 'history:List the recent commands that changed your books or clubs, newest first; undo reverts them.' 'doctor:Check the store, its history, settings and scenes; --fix repairs what it safely can.' 'agenda:Upcoming meetings of every club, and where you stand against each one'\''s target.' 'export:Write every book, reading, note and club out, for other tools or for safekeeping.' 'log:Log a batch of reading events from standard input, all or nothing.' 'import:Add the books of a Goodreads, StoryGraph or bookclub JSON export, a Calibre library, or an e-reader'\''s highlights.' 'stats:Your reading in numbers: pages and books a month, pace, streaks and your yearly goal.' 'lookup:Show what Open Library knows of an ISBN, without adding anything.' 'cover:Show a book'\''s cover, fetched from Open Library by its ISBN the first time.' 'covers:Fetch the covers of the books that have an ISBN and no cover yet.' 'sync:Share your library with your other machines through a folder.' 'completions:Print a completion script for bash, zsh or fish.' 'manual:Print the manual page bookclub(1), in roff.' 'club:Book clubs: their meetings, what to read by when.' 'settings:Read and change settings.' 'help:Show subcommand help information.') ;;
        ('bookclub/add') opts=('--author' '--pages' '--isbn' '--cover' '--tag' '--format' '--audio' '--length' '--json' '--store' '--settings' '--quiet' '--color' '--no-color' '--no-hooks' '--no-pager' '--version' '--help') ;;
        ('bookclub/list') opts=('--reading' '--finished' '--abandoned' '--unstarted' '--all' '--tag' '--stars' '--json' '--store' '--settings' '--quiet' '--color' '--no-color' '--no-hooks' '--no-pager' '--version' '--help') ;;
        ('bookclub/show') opts=('--json' '--store' '--settings' '--quiet' '--color' '--no-color' '--no-hooks' '--no-pager' '--version' '--help') ;;
        ('bookclub/progress') opts=('--note' '--date' '--edit' '--json' '--store' '--settings' '--quiet' '--color' '--no-color' '--no-hooks' '--no-pager' '--version' '--help') ;;
        ('bookclub/highlight') opts=('--page' '--note' '--date' '--club' '--json' '--store' '--settings' '--quiet' '--color' '--no-color' '--no-hooks' '--no-pager' '--version' '--help') ;;
        ('bookclub/finish') opts=('--date' '--note' '--rating' '--review' '--json' '--store' '--settings' '--quiet' '--color' '--no-color' '--no-hooks' '--no-pager' '--version' '--help') ;;
        ('bookclub/unfinish') opts=('--json' '--store' '--settings' '--quiet' '--color' '--no-color' '--no-hooks' '--no-pager' '--version' '--help') ;;
        ('bookclub/abandon') opts=('--date' '--note' '--json' '--store' '--settings' '--quiet' '--color' '--no-color' '--no-hooks' '--no-pager' '--version' '--help') ;;
        ('bookclub/reread') opts=('--format' '--audio' '--length' '--json' '--store' '--settings' '--quiet' '--color' '--no-color' '--no-hooks' '--no-pager' '--version' '--help') ;;
        ('bookclub/edit') opts=('--title' '--author' '--pages' '--isbn' '--cover' '--format' '--length' '--add-tag' '--remove-tag' '--rating' '--review' '--refresh' '--replace' '--json' '--store' '--settings' '--quiet' '--color' '--no-color' '--no-hooks' '--no-pager' '--version' '--help') ;;
        ('bookclub/remove') opts=('--yes' '--json' '--store' '--settings' '--quiet' '--color' '--no-color' '--no-hooks' '--no-pager' '--version' '--help') ;;
        ('bookclub/notes') opts=('--club' '--meeting' '--output' '--json' '--store' '--settings' '--quiet' '--color' '--no-color' '--no-hooks' '--no-pager' '--version' '--help') ;;
        ('bookclub/select') opts=('--club' '--clear' '--json' '--store' '--settings' '--quiet' '--color' '--no-color' '--no-hooks' '--no-pager' '--version' '--help') ;;
        ('bookclub/undo') opts=('--json' '--store' '--settings' '--quiet' '--color' '--no-color' '--no-hooks' '--no-pager' '--version' '--help') ;;
        ('bookclub/history') opts=('--json' '--store' '--settings' '--quiet' '--color' '--no-color' '--no-hooks' '--no-pager' '--version' '--help') ;;
        ('bookclub/doctor') opts=('--fix' '--json' '--store' '--settings' '--quiet' '--color' '--no-color' '--no-hooks' '--no-pager' '--version' '--help') ;;
        ('bookclub/agenda') opts=('--days' '--club' '--json' '--store' '--settings' '--quiet' '--color' '--no-color' '--no-hooks' '--no-pager' '--version' '--help') ;;
        ('bookclub/export') opts=('--format' '--output' '--json' '--store' '--settings' '--quiet' '--color' '--no-color' '--no-hooks' '--no-pager' '--version' '--help') ;;
        ('bookclub/log') opts=('--stdin' '--skip-invalid' '--json' '--store' '--settings' '--quiet' '--color' '--no-color' '--no-hooks' '--no-pager' '--version' '--help') ;;
        ('bookclub/import') opts=('--dry-run' '--columns' '--read-column' '--date-read-column' '--json' '--store' '--settings' '--quiet' '--color' '--no-color' '--no-hooks' '--no-pager' '--version' '--help') ;;
        ('bookclub/stats') opts=('--year' '--html' '--output' '--open' '--no-covers' '--json' '--store' '--settings' '--quiet' '--color' '--no-color' '--no-hooks' '--no-pager' '--version' '--help') ;;
        ('bookclub/lookup') opts=('--json' '--store' '--settings' '--quiet' '--color' '--no-color' '--no-hooks' '--no-pager' '--version' '--help') ;;
        ('bookclub/cover') opts=('--path' '--json' '--store' '--settings' '--quiet' '--color' '--no-color' '--no-hooks' '--no-pager' '--version' '--help') ;;
        ('bookclub/covers') opts=('--limit' '--json' '--store' '--settings' '--quiet' '--color' '--no-color' '--no-hooks' '--no-pager' '--version' '--help') ;;
        ('bookclub/sync') opts=('--name' '--json' '--store' '--settings' '--quiet' '--color' '--no-color' '--no-hooks' '--no-pager' '--version' '--help') ;;
        ('bookclub/completions') opts=('--json' '--store' '--settings' '--quiet' '--color' '--no-color' '--no-hooks' '--no-pager' '--version' '--help') ;;
        ('bookclub/manual') opts=('--json' '--store' '--settings' '--quiet' '--color' '--no-color' '--no-hooks' '--no-pager' '--version' '--help') ;;
        ('bookclub/club') opts=('--store' '--settings' '--quiet' '--color' '--no-color' '--no-hooks' '--no-pager' '--version' '--help'); subcommands=('add:Add a book club and print its id.' 'list:List the clubs with their next meeting.' 'show:Show a club, its current book and its meetings.' 'rename:Rename a club.' 'remove:Delete a club and its meetings; the books stay.' 'rm:Delete a club and its meetings; the books stay.' 'meeting:Plan a meeting: when, which book, how far to read, where.' 'meetings:List upcoming meetings, of one club or of all; or print them as an iCalendar file.' 'cancel:Cancel a meeting.' 'share:Share a club through a folder, as its founder.' 'join:Ask to join a club shared through a folder.' 'members:List a shared club'\''s members, their keys and state.' 'admit:Admit a member who asked to join (hosts only).' 'host:Make a member a host (hosts only).' 'expel:Remove a member from a shared club (hosts only).' 'leave:Leave a shared club: publish nothing more to it.' 'link:Link your copy of a shared club'\''s book.' 'post:Post a note to a shared club, hidden until read that far.' 'feed:What members shared that you have read far enough to see.' 'rsvp:Say whether you are coming to a shared club'\''s meeting.' 'poll:Open a poll in a shared club: one choice, ranked or approval.' 'vote:Vote in a shared club'\''s poll; vote again to change your ballot.' 'polls:List a shared club'\''s polls: open ones with your ballot, closed ones with their count.' 'close:Close a shared club'\''s poll and print its count.' 'policy:Show or set a shared club'\''s policy: who may open polls.' 'sync:Sync shared clubs now.' 'help:Show subcommand help information.') ;;
        ('bookclub/club/add') opts=('--description' '--json' '--store' '--settings' '--quiet' '--color' '--no-color' '--no-hooks' '--no-pager' '--version' '--help') ;;
        ('bookclub/club/list') opts=('--json' '--store' '--settings' '--quiet' '--color' '--no-color' '--no-hooks' '--no-pager' '--version' '--help') ;;
        ('bookclub/club/show') opts=('--json' '--store' '--settings' '--quiet' '--color' '--no-color' '--no-hooks' '--no-pager' '--version' '--help') ;;
        ('bookclub/club/rename') opts=('--json' '--store' '--settings' '--quiet' '--color' '--no-color' '--no-hooks' '--no-pager' '--version' '--help') ;;
        ('bookclub/club/remove') opts=('--yes' '--json' '--store' '--settings' '--quiet' '--color' '--no-color' '--no-hooks' '--no-pager' '--version' '--help') ;;
        ('bookclub/club/meeting') opts=('--date' '--book' '--target' '--label' '--where' '--winner' '--json' '--store' '--settings' '--quiet' '--color' '--no-color' '--no-hooks' '--no-pager' '--version' '--help') ;;
        ('bookclub/club/meetings') opts=('--past' '--ics' '--json' '--store' '--settings' '--quiet' '--color' '--no-color' '--no-hooks' '--no-pager' '--version' '--help') ;;
        ('bookclub/club/cancel') opts=('--json' '--store' '--settings' '--quiet' '--color' '--no-color' '--no-hooks' '--no-pager' '--version' '--help') ;;
        ('bookclub/club/share') opts=('--name' '--json' '--store' '--settings' '--quiet' '--color' '--no-color' '--no-hooks' '--no-pager' '--version' '--help') ;;
        ('bookclub/club/join') opts=('--founder' '--name' '--json' '--store' '--settings' '--quiet' '--color' '--no-color' '--no-hooks' '--no-pager' '--version' '--help') ;;
        ('bookclub/club/members') opts=('--json' '--store' '--settings' '--quiet' '--color' '--no-color' '--no-hooks' '--no-pager' '--version' '--help') ;;
        ('bookclub/club/admit') opts=('--json' '--store' '--settings' '--quiet' '--color' '--no-color' '--no-hooks' '--no-pager' '--version' '--help') ;;
        ('bookclub/club/host') opts=('--json' '--store' '--settings' '--quiet' '--color' '--no-color' '--no-hooks' '--no-pager' '--version' '--help') ;;
        ('bookclub/club/expel') opts=('--json' '--store' '--settings' '--quiet' '--color' '--no-color' '--no-hooks' '--no-pager' '--version' '--help') ;;
        ('bookclub/club/leave') opts=('--json' '--store' '--settings' '--quiet' '--color' '--no-color' '--no-hooks' '--no-pager' '--version' '--help') ;;
        ('bookclub/club/link') opts=('--club-book' '--json' '--store' '--settings' '--quiet' '--color' '--no-color' '--no-hooks' '--no-pager' '--version' '--help') ;;
        ('bookclub/club/post') opts=('--at' '--club-book' '--json' '--store' '--settings' '--quiet' '--color' '--no-color' '--no-hooks' '--no-pager' '--version' '--help') ;;
        ('bookclub/club/feed') opts=('--spoilers' '--json' '--store' '--settings' '--quiet' '--color' '--no-color' '--no-hooks' '--no-pager' '--version' '--help') ;;
        ('bookclub/club/rsvp') opts=('--note' '--json' '--store' '--settings' '--quiet' '--color' '--no-color' '--no-hooks' '--no-pager' '--version' '--help') ;;
        ('bookclub/club/poll') opts=('--option' '--book' '--ranked' '--approval' '--closes' '--json' '--store' '--settings' '--quiet' '--color' '--no-color' '--no-hooks' '--no-pager' '--version' '--help') ;;
        ('bookclub/club/vote') opts=('--json' '--store' '--settings' '--quiet' '--color' '--no-color' '--no-hooks' '--no-pager' '--version' '--help') ;;
        ('bookclub/club/polls') opts=('--json' '--store' '--settings' '--quiet' '--color' '--no-color' '--no-hooks' '--no-pager' '--version' '--help') ;;
        ('bookclub/club/close') opts=('--json' '--store' '--settings' '--quiet' '--color' '--no-color' '--no-hooks' '--no-pager' '--version' '--help') ;;
        ('bookclub/club/policy') opts=('--polls' '--json' '--store' '--settings' '--quiet' '--color' '--no-color' '--no-hooks' '--no-pager' '--version' '--help') ;;
        ('bookclub/club/sync') opts=('--json' '--store' '--settings' '--quiet' '--color' '--no-color' '--no-hooks' '--no-pager' '--version' '--help') ;;
        ('bookclub/settings') opts=('--store' '--settings' '--quiet' '--color' '--no-color' '--no-hooks' '--no-pager' '--version' '--help'); subcommands=('list:List every setting with its value, default and description.' 'get:Print the value of a setting.' 'set:Change a setting.' 'reset:Put a setting, or every setting, back to its default.' 'help:Show subcommand help information.') ;;
        ('bookclub/settings/list') opts=('--json' '--store' '--settings' '--quiet' '--color' '--no-color' '--no-hooks' '--no-pager' '--version' '--help') ;;
        ('bookclub/settings/get') opts=('--json' '--store' '--settings' '--quiet' '--color' '--no-color' '--no-hooks' '--no-pager' '--version' '--help') ;;
        ('bookclub/settings/set') opts=('--json' '--store' '--settings' '--quiet' '--color' '--no-color' '--no-hooks' '--no-pager' '--version' '--help') ;;
        ('bookclub/settings/reset') opts=('--all' '--json' '--store' '--settings' '--quiet' '--color' '--no-color' '--no-hooks' '--no-pager' '--version' '--help') ;;
    esac
    if [[ $PREFIX == -* ]]; then
        compadd -a opts
    elif (( ${#subcommands} )); then
        _describe -t commands 'subcommand' subcommands
    else
        _files
    fi
}

_bookclub "$@"

#!/bin/bash

# The word $1 without its quotes and backslashes, in REPLY.
__bookclub_dequote() {
    REPLY=$1
    case $REPLY in
        \'*) REPLY=${REPLY#\'}; REPLY=${REPLY%\'} ;;
        \"*) REPLY=${REPLY#\"}; REPLY=${REPLY%\"}; REPLY=${REPLY//\\/} ;;
        *) REPLY=${REPLY//\\/} ;;
    esac
}

_bookclub() {
    local line=${COMP_LINE:0:COMP_POINT} word before start end=0 i
    local -a words=()
    for ((i = 0; i <= COMP_CWORD; i++)); do
        word=${COMP_WORDS[i]}
        if [[ -n $word ]]; then before=${line:end}; before=${before%%"$word"*}; start=$((end + ${#before})); else start=$COMP_POINT; fi
        if ((${#words[@]} > 1 && start == end)) && [[ $word == [:=]* || ${words[${#words[@]}-1]} == *[:=] ]]; then
            words[${#words[@]}-1]+=$word
        else
            words+=("$word")
        fi
        end=$((start + ${#word}))
    done
    local cur=${words[${#words[@]}-1]} typed=${COMP_WORDS[COMP_CWORD]}
    [[ $typed == [:=] ]] && typed=
    local cmd='bookclub' n=0 skip= option= head= values= listing= files= restore=
    local -a pass=() candidates=()
    COMPREPLY=()
    for ((i = 1; i < ${#words[@]} - 1; i++)); do
        word=${words[i]}
        if [[ -n $skip ]]; then
            case $skip in --store|--settings) __bookclub_dequote "$word"; pass+=("$skip=${REPLY/#\~/$HOME}") ;; esac
            skip=
            continue
        fi
        case $word in --store=*|--settings=*) __bookclub_dequote "${word#*=}"; pass+=("${word%%=*}=$REPLY") ;; esac
        case "$cmd:$word" in
            'bookclub:add') cmd='bookclub/add'; n=0 ;;
            'bookclub:list') cmd='bookclub/list'; n=0 ;;
            'bookclub:ls') cmd='bookclub/list'; n=0 ;;
            'bookclub:show') cmd='bookclub/show'; n=0 ;;
            'bookclub:progress') cmd='bookclub/progress'; n=0 ;;
            'bookclub:highlight') cmd='bookclub/highlight'; n=0 ;;
            'bookclub:finish') cmd='bookclub/finish'; n=0 ;;
            'bookclub:unfinish') cmd='bookclub/unfinish'; n=0 ;;
            'bookclub:abandon') cmd='bookclub/abandon'; n=0 ;;
            'bookclub:reread') cmd='bookclub/reread'; n=0 ;;
            'bookclub:edit') cmd='bookclub/edit'; n=0 ;;
            'bookclub:remove') cmd='bookclub/remove'; n=0 ;;
            'bookclub:rm') cmd='bookclub/remove'; n=0 ;;
            'bookclub:notes') cmd='bookclub/notes'; n=0 ;;
            'bookclub:select') cmd='bookclub/select'; n=0 ;;
            'bookclub:undo') cmd='bookclub/undo'; n=0 ;;
            'bookclub:history') cmd='bookclub/history'; n=0 ;;
            'bookclub:doctor') cmd='bookclub/doctor'; n=0 ;;
            'bookclub:agenda') cmd='bookclub/agenda'; n=0 ;;
            'bookclub:export') cmd='bookclub/export'; n=0 ;;
            'bookclub:log') cmd='bookclub/log'; n=0 ;;
            'bookclub:import') cmd='bookclub/import'; n=0 ;;
            'bookclub:stats') cmd='bookclub/stats'; n=0 ;;
            'bookclub:lookup') cmd='bookclub/lookup'; n=0 ;;
            'bookclub:cover') cmd='bookclub/cover'; n=0 ;;
            'bookclub:covers') cmd='bookclub/covers'; n=0 ;;
            'bookclub:sync') cmd='bookclub/sync'; n=0 ;;
            'bookclub:completions') cmd='bookclub/completions'; n=0 ;;
            'bookclub:manual') cmd='bookclub/manual'; n=0 ;;
            'bookclub:club') cmd='bookclub/club'; n=0 ;;
            'bookclub:settings') cmd='bookclub/settings'; n=0 ;;
            'bookclub/club:add') cmd='bookclub/club/add'; n=0 ;;
            'bookclub/club:list') cmd='bookclub/club/list'; n=0 ;;
            'bookclub/club:show') cmd='bookclub/club/show'; n=0 ;;
            'bookclub/club:rename') cmd='bookclub/club/rename'; n=0 ;;
            'bookclub/club:remove') cmd='bookclub/club/remove'; n=0 ;;
            'bookclub/club:rm') cmd='bookclub/club/remove'; n=0 ;;
            'bookclub/club:meeting') cmd='bookclub/club/meeting'; n=0 ;;
            'bookclub/club:meetings') cmd='bookclub/club/meetings'; n=0 ;;
            'bookclub/club:cancel') cmd='bookclub/club/cancel'; n=0 ;;
            'bookclub/club:share') cmd='bookclub/club/share'; n=0 ;;
            'bookclub/club:join') cmd='bookclub/club/join'; n=0 ;;
            'bookclub/club:members') cmd='bookclub/club/members'; n=0 ;;
            'bookclub/club:admit') cmd='bookclub/club/admit'; n=0 ;;
            'bookclub/club:host') cmd='bookclub/club/host'; n=0 ;;
            'bookclub/club:expel') cmd='bookclub/club/expel'; n=0 ;;
            'bookclub/club:leave') cmd='bookclub/club/leave'; n=0 ;;
            'bookclub/club:link') cmd='bookclub/club/link'; n=0 ;;
            'bookclub/club:post') cmd='bookclub/club/post'; n=0 ;;
            'bookclub/club:feed') cmd='bookclub/club/feed'; n=0 ;;
            'bookclub/club:rsvp') cmd='bookclub/club/rsvp'; n=0 ;;
            'bookclub/club:poll') cmd='bookclub/club/poll'; n=0 ;;
            'bookclub/club:vote') cmd='bookclub/club/vote'; n=0 ;;
            'bookclub/club:polls') cmd='bookclub/club/polls'; n=0 ;;
            'bookclub/club:close') cmd='bookclub/club/close'; n=0 ;;
            'bookclub/club:policy') cmd='bookclub/club/policy'; n=0 ;;
            'bookclub/club:sync') cmd='bookclub/club/sync'; n=0 ;;
            'bookclub/settings:list') cmd='bookclub/settings/list'; n=0 ;;
            'bookclub/settings:get') cmd='bookclub/settings/get'; n=0 ;;
            'bookclub/settings:set') cmd='bookclub/settings/set'; n=0 ;;
            'bookclub/settings:reset') cmd='bookclub/settings/reset'; n=0 ;;
            'bookclub:--store'|'bookclub:--settings'|'bookclub:--color') skip=$word ;;
            'bookclub/add:--author'|'bookclub/add:-a'|'bookclub/add:--pages'|'bookclub/add:-p'|'bookclub/add:--isbn'|'bookclub/add:--cover'|'bookclub/add:--tag'|'bookclub/add:-t'|'bookclub/add:--format'|'bookclub/add:--length'|'bookclub/add:--store'|'bookclub/add:--settings'|'bookclub/add:--color') skip=$word ;;
            'bookclub/list:--tag'|'bookclub/list:-t'|'bookclub/list:--store'|'bookclub/list:--settings'|'bookclub/list:--color') skip=$word ;;
            'bookclub/show:--store'|'bookclub/show:--settings'|'bookclub/show:--color') skip=$word ;;
            'bookclub/progress:--note'|'bookclub/progress:--date'|'bookclub/progress:--store'|'bookclub/progress:--settings'|'bookclub/progress:--color') skip=$word ;;
            'bookclub/highlight:--page'|'bookclub/highlight:-p'|'bookclub/highlight:--note'|'bookclub/highlight:--date'|'bookclub/highlight:--club'|'bookclub/highlight:--store'|'bookclub/highlight:--settings'|'bookclub/highlight:--color') skip=$word ;;
            'bookclub/finish:--date'|'bookclub/finish:--note'|'bookclub/finish:--rating'|'bookclub/finish:--review'|'bookclub/finish:--store'|'bookclub/finish:--settings'|'bookclub/finish:--color') skip=$word ;;
            'bookclub/unfinish:--store'|'bookclub/unfinish:--settings'|'bookclub/unfinish:--color') skip=$word ;;
            'bookclub/abandon:--date'|'bookclub/abandon:--note'|'bookclub/abandon:--store'|'bookclub/abandon:--settings'|'bookclub/abandon:--color') skip=$word ;;
            'bookclub/reread:--format'|'bookclub/reread:--length'|'bookclub/reread:--store'|'bookclub/reread:--settings'|'bookclub/reread:--color') skip=$word ;;
            'bookclub/edit:--title'|'bookclub/edit:--author'|'bookclub/edit:-a'|'bookclub/edit:--pages'|'bookclub/edit:-p'|'bookclub/edit:--isbn'|'bookclub/edit:--cover'|'bookclub/edit:--format'|'bookclub/edit:--length'|'bookclub/edit:--add-tag'|'bookclub/edit:--remove-tag'|'bookclub/edit:--rating'|'bookclub/edit:--review'|'bookclub/edit:--store'|'bookclub/edit:--settings'|'bookclub/edit:--color') skip=$word ;;
            'bookclub/remove:--store'|'bookclub/remove:--settings'|'bookclub/remove:--color') skip=$word ;;
            'bookclub/notes:--club'|'bookclub/notes:--meeting'|'bookclub/notes:--output'|'bookclub/notes:-o'|'bookclub/notes:--store'|'bookclub/notes:--settings'|'bookclub/notes:--color') skip=$word ;;
            'bookclub/select:--club'|'bookclub/select:--store'|'bookclub/select:--settings'|'bookclub/select:--color') skip=$word ;;
            'bookclub/undo:--store'|'bookclub/undo:--settings'|'bookclub/undo:--color') skip=$word ;;
            'bookclub/history:--store'|'bookclub/history:--settings'|'bookclub/history:--color') skip=$word ;;
            'bookclub/doctor:--store'|'bookclub/doctor:--settings'|'bookclub/doctor:--color') skip=$word ;;
            'bookclub/agenda:--days'|'bookclub/agenda:--club'|'bookclub/agenda:--store'|'bookclub/agenda:--settings'|'bookclub/agenda:--color') skip=$word ;;
            'bookclub/export:--format'|'bookclub/export:--output'|'bookclub/export:-o'|'bookclub/export:--store'|'bookclub/export:--settings'|'bookclub/export:--color') skip=$word ;;
            'bookclub/log:--store'|'bookclub/log:--settings'|'bookclub/log:--color') skip=$word ;;
            'bookclub/import:--read-column'|'bookclub/import:--date-read-column'|'bookclub/import:--store'|'bookclub/import:--settings'|'bookclub/import:--color') skip=$word ;;
            'bookclub/stats:--year'|'bookclub/stats:--output'|'bookclub/stats:-o'|'bookclub/stats:--store'|'bookclub/stats:--settings'|'bookclub/stats:--color') skip=$word ;;
            'bookclub/lookup:--store'|'bookclub/lookup:--settings'|'bookclub/lookup:--color') skip=$word ;;
            'bookclub/cover:--store'|'bookclub/cover:--settings'|'bookclub/cover:--color') skip=$word ;;
            'bookclub/covers:--limit'|'bookclub/covers:-n'|'bookclub/covers:--store'|'bookclub/covers:--settings'|'bookclub/covers:--color') skip=$word ;;
            'bookclub/sync:--name'|'bookclub/sync:--store'|'bookclub/sync:--settings'|'bookclub/sync:--color') skip=$word ;;
            'bookclub/completions:--store'|'bookclub/completions:--settings'|'bookclub/completions:--color') skip=$word ;;
            'bookclub/manual:--store'|'bookclub/manual:--settings'|'bookclub/manual:--color') skip=$word ;;
            'bookclub/club:--store'|'bookclub/club:--settings'|'bookclub/club:--color') skip=$word ;;
            'bookclub/club/add:--description'|'bookclub/club/add:--store'|'bookclub/club/add:--settings'|'bookclub/club/add:--color') skip=$word ;;
            'bookclub/club/list:--store'|'bookclub/club/list:--settings'|'bookclub/club/list:--color') skip=$word ;;
            'bookclub/club/show:--store'|'bookclub/club/show:--settings'|'bookclub/club/show:--color') skip=$word ;;
            'bookclub/club/rename:--store'|'bookclub/club/rename:--settings'|'bookclub/club/rename:--color') skip=$word ;;
            'bookclub/club/remove:--store'|'bookclub/club/remove:--settings'|'bookclub/club/remove:--color') skip=$word ;;
            'bookclub/club/meeting:--date'|'bookclub/club/meeting:--book'|'bookclub/club/meeting:--target'|'bookclub/club/meeting:--label'|'bookclub/club/meeting:--where'|'bookclub/club/meeting:--winner'|'bookclub/club/meeting:--store'|'bookclub/club/meeting:--settings'|'bookclub/club/meeting:--color') skip=$word ;;
            'bookclub/club/meetings:--store'|'bookclub/club/meetings:--settings'|'bookclub/club/meetings:--color') skip=$word ;;
            'bookclub/club/cancel:--store'|'bookclub/club/cancel:--settings'|'bookclub/club/cancel:--color') skip=$word ;;
            'bookclub/club/share:--name'|'bookclub/club/share:--store'|'bookclub/club/share:--settings'|'bookclub/club/share:--color') skip=$word ;;
            'bookclub/club/join:--founder'|'bookclub/club/join:--name'|'bookclub/club/join:--store'|'bookclub/club/join:--settings'|'bookclub/club/join:--color') skip=$word ;;
            'bookclub/club/members:--store'|'bookclub/club/members:--settings'|'bookclub/club/members:--color') skip=$word ;;
            'bookclub/club/admit:--store'|'bookclub/club/admit:--settings'|'bookclub/club/admit:--color') skip=$word ;;
            'bookclub/club/host:--store'|'bookclub/club/host:--settings'|'bookclub/club/host:--color') skip=$word ;;
            'bookclub/club/expel:--store'|'bookclub/club/expel:--settings'|'bookclub/club/expel:--color') skip=$word ;;
            'bookclub/club/leave:--store'|'bookclub/club/leave:--settings'|'bookclub/club/leave:--color') skip=$word ;;
            'bookclub/club/link:--club-book'|'bookclub/club/link:--store'|'bookclub/club/link:--settings'|'bookclub/club/link:--color') skip=$word ;;
            'bookclub/club/post:--at'|'bookclub/club/post:--club-book'|'bookclub/club/post:--store'|'bookclub/club/post:--settings'|'bookclub/club/post:--color') skip=$word ;;
            'bookclub/club/feed:--store'|'bookclub/club/feed:--settings'|'bookclub/club/feed:--color') skip=$word ;;
            'bookclub/club/rsvp:--note'|'bookclub/club/rsvp:--store'|'bookclub/club/rsvp:--settings'|'bookclub/club/rsvp:--color') skip=$word ;;
            'bookclub/club/poll:--option'|'bookclub/club/poll:--book'|'bookclub/club/poll:--closes'|'bookclub/club/poll:--store'|'bookclub/club/poll:--settings'|'bookclub/club/poll:--color') skip=$word ;;
            'bookclub/club/vote:--store'|'bookclub/club/vote:--settings'|'bookclub/club/vote:--color') skip=$word ;;
            'bookclub/club/polls:--store'|'bookclub/club/polls:--settings'|'bookclub/club/polls:--color') skip=$word ;;
            'bookclub/club/close:--store'|'bookclub/club/close:--settings'|'bookclub/club/close:--color') skip=$word ;;
            'bookclub/club/policy:--polls'|'bookclub/club/policy:--store'|'bookclub/club/policy:--settings'|'bookclub/club/policy:--color') skip=$word ;;
            'bookclub/club/sync:--store'|'bookclub/club/sync:--settings'|'bookclub/club/sync:--color') skip=$word ;;
            'bookclub/settings:--store'|'bookclub/settings:--settings'|'bookclub/settings:--color') skip=$word ;;
            'bookclub/settings/list:--store'|'bookclub/settings/list:--settings'|'bookclub/settings/list:--color') skip=$word ;;
            'bookclub/settings/get:--store'|'bookclub/settings/get:--settings'|'bookclub/settings/get:--color') skip=$word ;;
            'bookclub/settings/set:--store'|'bookclub/settings/set:--settings'|'bookclub/settings/set:--color') skip=$word ;;
            'bookclub/settings/reset:--store'|'bookclub/settings/reset:--settings'|'bookclub/settings/reset:--color') skip=$word ;;
            *:-*) ;;
            *) n=$((n + 1)) ;;
        esac
    done
    if [[ -n $skip ]]; then
        option=$skip
    elif [[ $cur == --*=* ]]; then
        option=${cur%%=*} head=${cur%%=*}=
    fi
    if [[ -n $option ]]; then
        case "$cmd:$option" in
            'bookclub:--store') files=1 ;;
            'bookclub:--settings') files=1 ;;
            'bookclub:--color') values='auto always never' ;;
            'bookclub/add:--format') values='print ebook audiobook' ;;
            'bookclub/add:--store') files=1 ;;
            'bookclub/add:--settings') files=1 ;;
            'bookclub/add:--color') values='auto always never' ;;
            'bookclub/list:--store') files=1 ;;
            'bookclub/list:--settings') files=1 ;;
            'bookclub/list:--color') values='auto always never' ;;
            'bookclub/show:--store') files=1 ;;
            'bookclub/show:--settings') files=1 ;;
            'bookclub/show:--color') values='auto always never' ;;
            'bookclub/progress:--date') values='today yesterday monday tuesday wednesday thursday friday saturday sunday' ;;
            'bookclub/progress:--store') files=1 ;;
            'bookclub/progress:--settings') files=1 ;;
            'bookclub/progress:--color') values='auto always never' ;;
            'bookclub/highlight:--date') values='today yesterday monday tuesday wednesday thursday friday saturday sunday' ;;
            'bookclub/highlight:--club') listing=--clubs ;;
            'bookclub/highlight:--store') files=1 ;;
            'bookclub/highlight:--settings') files=1 ;;
            'bookclub/highlight:--color') values='auto always never' ;;
            'bookclub/finish:--date') values='today yesterday monday tuesday wednesday thursday friday saturday sunday' ;;
            'bookclub/finish:--store') files=1 ;;
            'bookclub/finish:--settings') files=1 ;;
            'bookclub/finish:--color') values='auto always never' ;;
            'bookclub/unfinish:--store') files=1 ;;
            'bookclub/unfinish:--settings') files=1 ;;
            'bookclub/unfinish:--color') values='auto always never' ;;
            'bookclub/abandon:--date') values='today yesterday monday tuesday wednesday thursday friday saturday sunday' ;;
            'bookclub/abandon:--store') files=1 ;;
            'bookclub/abandon:--settings') files=1 ;;
            'bookclub/abandon:--color') values='auto always never' ;;
            'bookclub/reread:--format') values='print ebook audiobook' ;;
            'bookclub/reread:--store') files=1 ;;
            'bookclub/reread:--settings') files=1 ;;
            'bookclub/reread:--color') values='auto always never' ;;
            'bookclub/edit:--format') values='print ebook audiobook' ;;
            'bookclub/edit:--store') files=1 ;;
            'bookclub/edit:--settings') files=1 ;;
            'bookclub/edit:--color') values='auto always never' ;;
            'bookclub/remove:--store') files=1 ;;
            'bookclub/remove:--settings') files=1 ;;
            'bookclub/remove:--color') values='auto always never' ;;
            'bookclub/notes:--club') listing=--clubs ;;
            'bookclub/notes:--meeting') listing=--meetings ;;
            'bookclub/notes:--output'|'bookclub/notes:-o') files=1 ;;
            'bookclub/notes:--store') files=1 ;;
            'bookclub/notes:--settings') files=1 ;;
            'bookclub/notes:--color') values='auto always never' ;;
            'bookclub/select:--club') listing=--clubs ;;
            'bookclub/select:--store') files=1 ;;
            'bookclub/select:--settings') files=1 ;;
            'bookclub/select:--color') values='auto always never' ;;
            'bookclub/undo:--store') files=1 ;;
            'bookclub/undo:--settings') files=1 ;;
            'bookclub/undo:--color') values='auto always never' ;;
            'bookclub/history:--store') files=1 ;;
            'bookclub/history:--settings') files=1 ;;
            'bookclub/history:--color') values='auto always never' ;;
            'bookclub/doctor:--store') files=1 ;;
            'bookclub/doctor:--settings') files=1 ;;
            'bookclub/doctor:--color') values='auto always never' ;;
            'bookclub/agenda:--club') listing=--clubs ;;
            'bookclub/agenda:--store') files=1 ;;
            'bookclub/agenda:--settings') files=1 ;;
            'bookclub/agenda:--color') values='auto always never' ;;
            'bookclub/export:--format') values='json csv markdown' ;;
            'bookclub/export:--output'|'bookclub/export:-o') files=1 ;;
            'bookclub/export:--store') files=1 ;;
            'bookclub/export:--settings') files=1 ;;
            'bookclub/export:--color') values='auto always never' ;;
            'bookclub/log:--store') files=1 ;;
            'bookclub/log:--settings') files=1 ;;
            'bookclub/log:--color') values='auto always never' ;;
            'bookclub/import:--store') files=1 ;;
            'bookclub/import:--settings') files=1 ;;
            'bookclub/import:--color') values='auto always never' ;;
            'bookclub/stats:--output'|'bookclub/stats:-o') files=1 ;;
            'bookclub/stats:--store') files=1 ;;
            'bookclub/stats:--settings') files=1 ;;
            'bookclub/stats:--color') values='auto always never' ;;
            'bookclub/lookup:--store') files=1 ;;
            'bookclub/lookup:--settings') files=1 ;;
            'bookclub/lookup:--color') values='auto always never' ;;
            'bookclub/cover:--store') files=1 ;;
            'bookclub/cover:--settings') files=1 ;;
            'bookclub/cover:--color') values='auto always never' ;;
            'bookclub/covers:--store') files=1 ;;
            'bookclub/covers:--settings') files=1 ;;
            'bookclub/covers:--color') values='auto always never' ;;
            'bookclub/sync:--store') files=1 ;;
            'bookclub/sync:--settings') files=1 ;;
            'bookclub/sync:--color') values='auto always never' ;;
            'bookclub/completions:--store') files=1 ;;
            'bookclub/completions:--settings') files=1 ;;
            'bookclub/completions:--color') values='auto always never' ;;
            'bookclub/manual:--store') files=1 ;;
            'bookclub/manual:--settings') files=1 ;;
            'bookclub/manual:--color') values='auto always never' ;;
            'bookclub/club:--store') files=1 ;;
            'bookclub/club:--settings') files=1 ;;
            'bookclub/club:--color') values='auto always never' ;;
            'bookclub/club/add:--store') files=1 ;;
            'bookclub/club/add:--settings') files=1 ;;
            'bookclub/club/add:--color') values='auto always never' ;;
            'bookclub/club/list:--store') files=1 ;;
            'bookclub/club/list:--settings') files=1 ;;
            'bookclub/club/list:--color') values='auto always never' ;;
            'bookclub/club/show:--store') files=1 ;;
            'bookclub/club/show:--settings') files=1 ;;
            'bookclub/club/show:--color') values='auto always never' ;;
            'bookclub/club/rename:--store') files=1 ;;
            'bookclub/club/rename:--settings') files=1 ;;
            'bookclub/club/rename:--color') values='auto always never' ;;
            'bookclub/club/remove:--store') files=1 ;;
            'bookclub/club/remove:--settings') files=1 ;;
            'bookclub/club/remove:--color') values='auto always never' ;;
            'bookclub/club/meeting:--date') values='today yesterday monday tuesday wednesday thursday friday saturday sunday' ;;
            'bookclub/club/meeting:--book') listing=--titles ;;
            'bookclub/club/meeting:--store') files=1 ;;
            'bookclub/club/meeting:--settings') files=1 ;;
            'bookclub/club/meeting:--color') values='auto always never' ;;
            'bookclub/club/meetings:--store') files=1 ;;
            'bookclub/club/meetings:--settings') files=1 ;;
            'bookclub/club/meetings:--color') values='auto always never' ;;
            'bookclub/club/cancel:--store') files=1 ;;
            'bookclub/club/cancel:--settings') files=1 ;;
            'bookclub/club/cancel:--color') values='auto always never' ;;
            'bookclub/club/share:--store') files=1 ;;
            'bookclub/club/share:--settings') files=1 ;;
            'bookclub/club/share:--color') values='auto always never' ;;
            'bookclub/club/join:--store') files=1 ;;
            'bookclub/club/join:--settings') files=1 ;;
            'bookclub/club/join:--color') values='auto always never' ;;
            'bookclub/club/members:--store') files=1 ;;
            'bookclub/club/members:--settings') files=1 ;;
            'bookclub/club/members:--color') values='auto always never' ;;
            'bookclub/club/admit:--store') files=1 ;;
            'bookclub/club/admit:--settings') files=1 ;;
            'bookclub/club/admit:--color') values='auto always never' ;;
            'bookclub/club/host:--store') files=1 ;;
            'bookclub/club/host:--settings') files=1 ;;
            'bookclub/club/host:--color') values='auto always never' ;;
            'bookclub/club/expel:--store') files=1 ;;
            'bookclub/club/expel:--settings') files=1 ;;
            'bookclub/club/expel:--color') values='auto always never' ;;
            'bookclub/club/leave:--store') files=1 ;;
            'bookclub/club/leave:--settings') files=1 ;;
            'bookclub/club/leave:--color') values='auto always never' ;;
            'bookclub/club/link:--store') files=1 ;;
            'bookclub/club/link:--settings') files=1 ;;
            'bookclub/club/link:--color') values='auto always never' ;;
            'bookclub/club/post:--store') files=1 ;;
            'bookclub/club/post:--settings') files=1 ;;
            'bookclub/club/post:--color') values='auto always never' ;;
            'bookclub/club/feed:--store') files=1 ;;
            'bookclub/club/feed:--settings') files=1 ;;
            'bookclub/club/feed:--color') values='auto always never' ;;
            'bookclub/club/rsvp:--store') files=1 ;;
            'bookclub/club/rsvp:--settings') files=1 ;;
            'bookclub/club/rsvp:--color') values='auto always never' ;;
            'bookclub/club/poll:--book') listing=--titles ;;
            'bookclub/club/poll:--closes') values='today yesterday monday tuesday wednesday thursday friday saturday sunday' ;;
            'bookclub/club/poll:--store') files=1 ;;
            'bookclub/club/poll:--settings') files=1 ;;
            'bookclub/club/poll:--color') values='auto always never' ;;
            'bookclub/club/vote:--store') files=1 ;;
            'bookclub/club/vote:--settings') files=1 ;;
            'bookclub/club/vote:--color') values='auto always never' ;;
            'bookclub/club/polls:--store') files=1 ;;
            'bookclub/club/polls:--settings') files=1 ;;
            'bookclub/club/polls:--color') values='auto always never' ;;
            'bookclub/club/close:--store') files=1 ;;
            'bookclub/club/close:--settings') files=1 ;;
            'bookclub/club/close:--color') values='auto always never' ;;
            'bookclub/club/policy:--polls') values='hosts members' ;;
            'bookclub/club/policy:--store') files=1 ;;
            'bookclub/club/policy:--settings') files=1 ;;
            'bookclub/club/policy:--color') values='auto always never' ;;
            'bookclub/club/sync:--store') files=1 ;;
            'bookclub/club/sync:--settings') files=1 ;;
            'bookclub/club/sync:--color') values='auto always never' ;;
            'bookclub/settings:--store') files=1 ;;
            'bookclub/settings:--settings') files=1 ;;
            'bookclub/settings:--color') values='auto always never' ;;
            'bookclub/settings/list:--store') files=1 ;;
            'bookclub/settings/list:--settings') files=1 ;;
            'bookclub/settings/list:--color') values='auto always never' ;;
            'bookclub/settings/get:--store') files=1 ;;
            'bookclub/settings/get:--settings') files=1 ;;
            'bookclub/settings/get:--color') values='auto always never' ;;
            'bookclub/settings/set:--store') files=1 ;;
            'bookclub/settings/set:--settings') files=1 ;;
            'bookclub/settings/set:--color') values='auto always never' ;;
            'bookclub/settings/reset:--store') files=1 ;;
            'bookclub/settings/reset:--settings') files=1 ;;
            'bookclub/settings/reset:--color') values='auto always never' ;;
        esac
    elif [[ $cur != -* ]]; then
        case "$cmd:$n" in
            'bookclub/show:0') listing=--titles ;;
            'bookclub/progress:0') listing=--titles ;;
            'bookclub/highlight:0') listing=--titles ;;
            'bookclub/finish:0') listing=--titles ;;
            'bookclub/unfinish:0') listing=--titles ;;
            'bookclub/abandon:0') listing=--titles ;;
            'bookclub/reread:0') listing=--titles ;;
            'bookclub/edit:0') listing=--titles ;;
            'bookclub/remove:0') listing=--titles ;;
            'bookclub/notes:0') listing=--titles ;;
            'bookclub/select:0') listing=--titles ;;
            'bookclub/import:0') values='goodreads storygraph json calibre kindle koreader kobo libby' ;;
            'bookclub/import:1') files=1 ;;
            'bookclub/cover:0') listing=--titles ;;
            'bookclub/sync:0') values='init status' ;;
            'bookclub/completions:0') values='bash fish zsh' ;;
            'bookclub/club/show:0') listing=--clubs ;;
            'bookclub/club/rename:0') listing=--clubs ;;
            'bookclub/club/remove:0') listing=--clubs ;;
            'bookclub/club/meeting:0') listing=--clubs ;;
            'bookclub/club/meetings:0') listing=--clubs ;;
            'bookclub/club/cancel:0') listing=--clubs ;;
            'bookclub/club/cancel:1') listing=--meetings ;;
            'bookclub/club/share:0') listing=--clubs ;;
            'bookclub/club/members:0') listing=--clubs ;;
            'bookclub/club/admit:0') listing=--clubs ;;
            'bookclub/club/host:0') listing=--clubs ;;
            'bookclub/club/expel:0') listing=--clubs ;;
            'bookclub/club/leave:0') listing=--clubs ;;
            'bookclub/club/link:0') listing=--clubs ;;
            'bookclub/club/link:1') listing=--titles ;;
            'bookclub/club/post:0') listing=--clubs ;;
            'bookclub/club/feed:0') listing=--clubs ;;
            'bookclub/club/rsvp:0') listing=--clubs ;;
            'bookclub/club/rsvp:1') listing=--meetings ;;
            'bookclub/club/rsvp:2') values='yes no maybe' ;;
            'bookclub/club/poll:0') listing=--clubs ;;
            'bookclub/club/vote:0') listing=--clubs ;;
            'bookclub/club/polls:0') listing=--clubs ;;
            'bookclub/club/close:0') listing=--clubs ;;
            'bookclub/club/policy:0') listing=--clubs ;;
            'bookclub/club/sync:0') listing=--clubs ;;
            'bookclub/settings/get:0') values='updateArtwork syncProgress syncFolder color lockTimeout hookTimeout yearlyGoal contact networkTimeout coverSizeLimit answerSizeLimit clubProgress clubKey' ;;
            'bookclub/settings/set:0') values='updateArtwork syncProgress syncFolder color lockTimeout hookTimeout yearlyGoal contact networkTimeout coverSizeLimit answerSizeLimit clubProgress clubKey' ;;
            'bookclub/settings/set:1') case ${words[${#words[@]}-2]} in 'clubProgress') values='exact target off' ;; 'color') values='auto always never' ;; 'syncProgress') values='true false' ;; 'updateArtwork') values='true false' ;; esac ;;
            'bookclub/settings/reset:0') values='updateArtwork syncProgress syncFolder color lockTimeout hookTimeout yearlyGoal contact networkTimeout coverSizeLimit answerSizeLimit clubProgress clubKey' ;;
        esac
    fi
    if [[ -n $files ]]; then
        compopt -o default 2>/dev/null
        return
    elif [[ -n $listing ]]; then
        while IFS= read -r word; do candidates+=("$word"); done < <(bookclub completions "$listing" "${pass[@]}" 2>/dev/null)
        compopt -o filenames 2>/dev/null
        shopt -q nocasematch || { shopt -s nocasematch; restore=1; }
    elif [[ -n $values ]]; then
        read -r -a candidates <<< "$values"
    elif [[ -z $option ]]; then
        case "$cmd" in
            'bookclub') read -r -a candidates <<< '--store --settings --quiet --color --no-color --no-hooks --no-pager --version --help add list ls show progress highlight finish unfinish abandon reread edit remove rm notes select undo history doctor agenda export log import stats lookup cover covers sync completions manual club settings help' ;;
            'bookclub/add') read -r -a candidates <<< '--author --pages --isbn --cover --tag --format --audio --length --json --store --settings --quiet --color --no-color --no-hooks --no-pager --version --help' ;;
            'bookclub/list') read -r -a candidates <<< '--reading --finished --abandoned --unstarted --all --tag --stars --json --store --settings --quiet --color --no-color --no-hooks --no-pager --version --help' ;;
            'bookclub/show') read -r -a candidates <<< '--json --store --settings --quiet --color --no-color --no-hooks --no-pager --version --help' ;;
            'bookclub/progress') read -r -a candidates <<< '--note --date --edit --json --store --settings --quiet --color --no-color --no-hooks --no-pager --version --help' ;;
            'bookclub/highlight') read -r -a candidates <<< '--page --note --date --club --json --store --settings --quiet --color --no-color --no-hooks --no-pager --version --help' ;;
            'bookclub/finish') read -r -a candidates <<< '--date --note --rating --review --json --store --settings --quiet --color --no-color --no-hooks --no-pager --version --help' ;;
            'bookclub/unfinish') read -r -a candidates <<< '--json --store --settings --quiet --color --no-color --no-hooks --no-pager --version --help' ;;
            'bookclub/abandon') read -r -a candidates <<< '--date --note --json --store --settings --quiet --color --no-color --no-hooks --no-pager --version --help' ;;
            'bookclub/reread') read -r -a candidates <<< '--format --audio --length --json --store --settings --quiet --color --no-color --no-hooks --no-pager --version --help' ;;
            'bookclub/edit') read -r -a candidates <<< '--title --author --pages --isbn --cover --format --length --add-tag --remove-tag --rating --review --refresh --replace --json --store --settings --quiet --color --no-color --no-hooks --no-pager --version --help' ;;
            'bookclub/remove') read -r -a candidates <<< '--yes --json --store --settings --quiet --color --no-color --no-hooks --no-pager --version --help' ;;
            'bookclub/notes') read -r -a candidates <<< '--club --meeting --output --json --store --settings --quiet --color --no-color --no-hooks --no-pager --version --help' ;;
            'bookclub/select') read -r -a candidates <<< '--club --clear --json --store --settings --quiet --color --no-color --no-hooks --no-pager --version --help' ;;
            'bookclub/undo') read -r -a candidates <<< '--json --store --settings --quiet --color --no-color --no-hooks --no-pager --version --help' ;;
            'bookclub/history') read -r -a candidates <<< '--json --store --settings --quiet --color --no-color --no-hooks --no-pager --version --help' ;;
            'bookclub/doctor') read -r -a candidates <<< '--fix --json --store --settings --quiet --color --no-color --no-hooks --no-pager --version --help' ;;
            'bookclub/agenda') read -r -a candidates <<< '--days --club --json --store --settings --quiet --color --no-color --no-hooks --no-pager --version --help' ;;
            'bookclub/export') read -r -a candidates <<< '--format --output --json --store --settings --quiet --color --no-color --no-hooks --no-pager --version --help' ;;
            'bookclub/log') read -r -a candidates <<< '--stdin --skip-invalid --json --store --settings --quiet --color --no-color --no-hooks --no-pager --version --help' ;;
            'bookclub/import') read -r -a candidates <<< '--dry-run --columns --read-column --date-read-column --json --store --settings --quiet --color --no-color --no-hooks --no-pager --version --help' ;;
            'bookclub/stats') read -r -a candidates <<< '--year --html --output --open --no-covers --json --store --settings --quiet --color --no-color --no-hooks --no-pager --version --help' ;;
            'bookclub/lookup') read -r -a candidates <<< '--json --store --settings --quiet --color --no-color --no-hooks --no-pager --version --help' ;;
            'bookclub/cover') read -r -a candidates <<< '--path --json --store --settings --quiet --color --no-color --no-hooks --no-pager --version --help' ;;
            'bookclub/covers') read -r -a candidates <<< '--limit --json --store --settings --quiet --color --no-color --no-hooks --no-pager --version --help' ;;
            'bookclub/sync') read -r -a candidates <<< '--name --json --store --settings --quiet --color --no-color --no-hooks --no-pager --version --help' ;;
            'bookclub/completions') read -r -a candidates <<< '--json --store --settings --quiet --color --no-color --no-hooks --no-pager --version --help' ;;
            'bookclub/manual') read -r -a candidates <<< '--json --store --settings --quiet --color --no-color --no-hooks --no-pager --version --help' ;;
            'bookclub/club') read -r -a candidates <<< '--store --settings --quiet --color --no-color --no-hooks --no-pager --version --help add list show rename remove rm meeting meetings cancel share join members admit host expel leave link post feed rsvp poll vote polls close policy sync help' ;;
            'bookclub/club/add') read -r -a candidates <<< '--description --json --store --settings --quiet --color --no-color --no-hooks --no-pager --version --help' ;;
            'bookclub/club/list') read -r -a candidates <<< '--json --store --settings --quiet --color --no-color --no-hooks --no-pager --version --help' ;;
            'bookclub/club/show') read -r -a candidates <<< '--json --store --settings --quiet --color --no-color --no-hooks --no-pager --version --help' ;;
            'bookclub/club/rename') read -r -a candidates <<< '--json --store --settings --quiet --color --no-color --no-hooks --no-pager --version --help' ;;
            'bookclub/club/remove') read -r -a candidates <<< '--yes --json --store --settings --quiet --color --no-color --no-hooks --no-pager --version --help' ;;
            'bookclub/club/meeting') read -r -a candidates <<< '--date --book --target --label --where --winner --json --store --settings --quiet --color --no-color --no-hooks --no-pager --version --help' ;;
            'bookclub/club/meetings') read -r -a candidates <<< '--past --ics --json --store --settings --quiet --color --no-color --no-hooks --no-pager --version --help' ;;
            'bookclub/club/cancel') read -r -a candidates <<< '--json --store --settings --quiet --color --no-color --no-hooks --no-pager --version --help' ;;
            'bookclub/club/share') read -r -a candidates <<< '--name --json --store --settings --quiet --color --no-color --no-hooks --no-pager --version --help' ;;
            'bookclub/club/join') read -r -a candidates <<< '--founder --name --json --store --settings --quiet --color --no-color --no-hooks --no-pager --version --help' ;;
            'bookclub/club/members') read -r -a candidates <<< '--json --store --settings --quiet --color --no-color --no-hooks --no-pager --version --help' ;;
            'bookclub/club/admit') read -r -a candidates <<< '--json --store --settings --quiet --color --no-color --no-hooks --no-pager --version --help' ;;
            'bookclub/club/host') read -r -a candidates <<< '--json --store --settings --quiet --color --no-color --no-hooks --no-pager --version --help' ;;
            'bookclub/club/expel') read -r -a candidates <<< '--json --store --settings --quiet --color --no-color --no-hooks --no-pager --version --help' ;;
            'bookclub/club/leave') read -r -a candidates <<< '--json --store --settings --quiet --color --no-color --no-hooks --no-pager --version --help' ;;
            'bookclub/club/link') read -r -a candidates <<< '--club-book --json --store --settings --quiet --color --no-color --no-hooks --no-pager --version --help' ;;
            'bookclub/club/post') read -r -a candidates <<< '--at --club-book --json --store --settings --quiet --color --no-color --no-hooks --no-pager --version --help' ;;
            'bookclub/club/feed') read -r -a candidates <<< '--spoilers --json --store --settings --quiet --color --no-color --no-hooks --no-pager --version --help' ;;
            'bookclub/club/rsvp') read -r -a candidates <<< '--note --json --store --settings --quiet --color --no-color --no-hooks --no-pager --version --help' ;;
            'bookclub/club/poll') read -r -a candidates <<< '--option --book --ranked --approval --closes --json --store --settings --quiet --color --no-color --no-hooks --no-pager --version --help' ;;
            'bookclub/club/vote') read -r -a candidates <<< '--json --store --settings --quiet --color --no-color --no-hooks --no-pager --version --help' ;;
            'bookclub/club/polls') read -r -a candidates <<< '--json --store --settings --quiet --color --no-color --no-hooks --no-pager --version --help' ;;
            'bookclub/club/close') read -r -a candidates <<< '--json --store --settings --quiet --color --no-color --no-hooks --no-pager --version --help' ;;
            'bookclub/club/policy') read -r -a candidates <<< '--polls --json --store --settings --quiet --color --no-color --no-hooks --no-pager --version --help' ;;
            'bookclub/club/sync') read -r -a candidates <<< '--json --store --settings --quiet --color --no-color --no-hooks --no-pager --version --help' ;;
            'bookclub/settings') read -r -a candidates <<< '--store --settings --quiet --color --no-color --no-hooks --no-pager --version --help list get set reset help' ;;
            'bookclub/settings/list') read -r -a candidates <<< '--json --store --settings --quiet --color --no-color --no-hooks --no-pager --version --help' ;;
            'bookclub/settings/get') read -r -a candidates <<< '--json --store --settings --quiet --color --no-color --no-hooks --no-pager --version --help' ;;
            'bookclub/settings/set') read -r -a candidates <<< '--json --store --settings --quiet --color --no-color --no-hooks --no-pager --version --help' ;;
            'bookclub/settings/reset') read -r -a candidates <<< '--all --json --store --settings --quiet --color --no-color --no-hooks --no-pager --version --help' ;;
        esac
    fi
    __bookclub_dequote "$cur"; cur=$REPLY
    __bookclub_dequote "$typed"
    local cut=$((${#cur} - ${#REPLY}))
    for word in "${candidates[@]}"; do
        word=$head$word
        [[ $word == "$cur"* ]] && COMPREPLY+=("${word:cut}")
    done
    # No title begins so: one with a word that does, as a BOOK is found.
    if [[ ${#COMPREPLY[@]} == 0 && -n $listing && $cut == 0 && -n $cur ]]; then
        for word in "${candidates[@]}"; do
            [[ $word == *[^[:alnum:]]"$cur"* ]] && COMPREPLY+=("$word")
        done
    fi
    [[ -n $restore ]] && shopt -u nocasematch
    return 0
}

complete -F _bookclub bookclub
